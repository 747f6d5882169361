import { useContext } from 'preact/hooks';
import { api, ApiError, type Overview } from './api.ts';
import { JobPage } from './pages/JobPage.tsx';
import { OverviewPage } from './pages/OverviewPage.tsx';
import { TaskManagersPage } from './pages/TaskManagersPage.tsx';
import { usePoll, type Polled } from './poll.ts';
import { useRoute } from './router.ts';
import { Who } from './who-context.ts';

export function App(props: { version: string; onSignOut: () => void }) {
  const route = useRoute();
  const who = useContext(Who);
  // Polled here for the header on every page; the overview page shows the rest of it.
  const overview = usePoll(api.overview, 'overview');
  return (
    <div>
      <header class="top">
        <a href="#/" class="brand">
          Weir
        </a>
        <a href="#/" class={route.page === 'overview' ? 'active' : ''}>
          Overview
        </a>
        <a href="#/taskmanagers" class={route.page === 'taskmanagers' ? 'active' : ''} data-testid="nav-taskmanagers">
          TaskManagers
        </a>
        <Leader overview={overview} />
        <span class="muted version">v{props.version}</span>
        {who.authentication && (
          <span class="who">
            <span data-testid="principal" title={who.principal}>
              {who.name} ({who.role})
            </span>{' '}
            <button data-testid="sign-out" onClick={props.onSignOut}>
              Sign out
            </button>
          </span>
        )}
      </header>
      <main>
        {route.page === 'overview' && <OverviewPage overview={overview.data} />}
        {route.page === 'taskmanagers' && <TaskManagersPage />}
        {route.page === 'job' && <JobPage jobId={route.jobId} tab={route.tab} />}
      </main>
    </div>
  );
}

/** Which JobManager leads, so a user behind a Service spanning every JobManager can tell; or why none answers (503 during an election). */
function Leader(props: { overview: Polled<Overview> }) {
  const { data, error } = props.overview;
  if (error instanceof ApiError && error.status === 503) {
    return (
      <span class="leader error" data-testid="leader" title={error.message}>
        {error.code === 'LEADER_UNREACHABLE' ? 'leader not answering' : 'no leader: election under way'}
      </span>
    );
  }
  if (data === undefined) return null;
  const { address, epoch } = data.leader;
  return (
    <span class="leader muted" data-testid="leader" title={`REST API ${data.leader['rest-url']}${epoch === null ? '' : `, leader epoch ${epoch}`}`}>
      {epoch === null ? 'JobManager' : 'Leader'} {address}
    </span>
  );
}
