import { render } from 'preact';
import { api } from './api.ts';
import { App } from './App.tsx';
import { RefreshInterval } from './poll.ts';
import './styles.css';

const root = document.getElementById('app')!;
api.config().then(
  (config) =>
    render(
      <RefreshInterval.Provider value={config['refresh-interval']}>
        <App version={config['weir-version']} />
      </RefreshInterval.Provider>,
      root,
    ),
  (error: unknown) => {
    root.textContent = `Cannot reach the JobManager's REST API: ${String(error)}`;
  },
);
