import { JobPage } from './pages/JobPage.tsx';
import { OverviewPage } from './pages/OverviewPage.tsx';
import { TaskManagersPage } from './pages/TaskManagersPage.tsx';
import { useRoute } from './router.ts';

export function App(props: { version: string }) {
  const route = useRoute();
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
        <span class="muted version">v{props.version}</span>
      </header>
      <main>
        {route.page === 'overview' && <OverviewPage />}
        {route.page === 'taskmanagers' && <TaskManagersPage />}
        {route.page === 'job' && <JobPage jobId={route.jobId} tab={route.tab} />}
      </main>
    </div>
  );
}
