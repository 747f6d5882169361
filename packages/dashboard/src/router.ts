import { useEffect, useState } from 'preact/hooks';

/** The dashboard's pages, addressed by the URL's hash so the JobManager serves one file. */
export type Route =
  | { readonly page: 'overview' }
  | { readonly page: 'taskmanagers' }
  | { readonly page: 'job'; readonly jobId: string; readonly tab: JobTab };

export const JOB_TABS = ['graph', 'checkpoints', 'exceptions'] as const;
export type JobTab = (typeof JOB_TABS)[number];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter((p) => p !== '');
  if (parts[0] === 'taskmanagers') return { page: 'taskmanagers' };
  if (parts[0] === 'jobs' && parts[1] !== undefined) {
    const tab = (JOB_TABS as readonly string[]).includes(parts[2] ?? '') ? (parts[2] as JobTab) : 'graph';
    return { page: 'job', jobId: parts[1], tab };
  }
  return { page: 'overview' };
}

export function jobHref(jobId: string, tab: JobTab = 'graph'): string {
  return `#/jobs/${jobId}/${tab}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
