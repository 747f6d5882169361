import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Config } from './api.ts';
import { App } from './App.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import type { WhoAmI } from './permissions.ts';
import { RefreshInterval } from './poll.ts';
import { onUnauthorized, sessionToken, signOut } from './session.ts';
import { Who } from './who-context.ts';
import './styles.css';

type State =
  | { readonly kind: 'starting' }
  | { readonly kind: 'login'; readonly message: string | undefined }
  | { readonly kind: 'signed-in'; readonly who: WhoAmI; readonly config: Config }
  | { readonly kind: 'unreachable'; readonly message: string };

/**
 * Asks the JobManager who the user is (with the token of this tab's session, if any): 401
 * shows the login page; otherwise the dashboard opens. Without authentication every caller is
 * the anonymous admin and it opens at once, as before. Any later 401 comes back here.
 */
function Root() {
  const [state, setState] = useState<State>({ kind: 'starting' });
  const open = async (who: WhoAmI): Promise<void> => setState({ kind: 'signed-in', who, config: await api.config() });
  const start = (): void => {
    api.whoami(true).then(open, (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) {
        // A token kept from earlier in this tab that the cluster no longer takes (revoked, expired): say so.
        const had = sessionToken() !== undefined;
        signOut();
        setState({ kind: 'login', message: had ? `Signed out: ${error.message}` : undefined });
      } else setState({ kind: 'unreachable', message: String(error) });
    });
  };
  useEffect(() => {
    onUnauthorized((message) => {
      signOut();
      setState({ kind: 'login', message: `Signed out: ${message}` });
    });
    start();
  }, []);
  switch (state.kind) {
    case 'starting':
      return <p>Loading…</p>;
    case 'unreachable':
      return <p>Cannot reach the JobManager's REST API: {state.message}</p>;
    case 'login':
      return <LoginPage message={state.message} onSignedIn={(who) => void open(who).catch((error: unknown) => setState({ kind: 'unreachable', message: String(error) }))} />;
    case 'signed-in':
      return (
        <Who.Provider value={state.who}>
          <RefreshInterval.Provider value={state.config['refresh-interval']}>
            <App
              version={state.config['weir-version']}
              onSignOut={() => {
                signOut();
                setState({ kind: 'login', message: 'Signed out.' });
              }}
            />
          </RefreshInterval.Provider>
        </Who.Provider>
      );
  }
}

render(<Root />, document.getElementById('app')!);
