import { useRef } from 'preact/hooks';
import { api } from '../api.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { formatDuration, formatTime } from '../format.ts';
import { usePoll } from '../poll.ts';
import { JOB_TABS, jobHref, type JobTab } from '../router.ts';
import { CheckpointsTab } from './job/CheckpointsTab.tsx';
import { ExceptionsTab } from './job/ExceptionsTab.tsx';
import { GraphTab } from './job/GraphTab.tsx';
import { JobActions } from './job/JobActions.tsx';
import { addSample, emptyHistory } from './job/throughput.ts';

const TAB_TITLES: Record<JobTab, string> = { graph: 'Overview', checkpoints: 'Checkpoints', exceptions: 'Exceptions' };

/** One job: status, actions, and the graph, checkpoints and exceptions tabs. */
export function JobPage(props: { jobId: string; tab: JobTab }) {
  const { data: job, error } = usePoll(() => api.job(props.jobId), `job-${props.jobId}`);
  const history = useRef(emptyHistory());
  if (job === undefined) return <p class={error ? 'error' : ''}>{error ? `Cannot load job ${props.jobId}: ${error.message}` : 'Loading…'}</p>;
  addSample(history.current, job);
  return (
    <section>
      <div class="job-header">
        <h2>{job.name}</h2>
        <StatusBadge status={job.state} testId="job-status" />
        <span class="muted">
          <code>{job.jid}</code> · started {formatTime(job['start-time'])} · {formatDuration(job.duration)} · attempt {job.attempt}
        </span>
      </div>
      {job['failure-cause'] !== null && <pre class="stack error">{job['failure-cause']}</pre>}
      <JobActions job={job} />
      <nav class="tabs">
        {JOB_TABS.map((tab) => (
          <a href={jobHref(job.jid, tab)} class={tab === props.tab ? 'active' : ''} data-testid={`tab-${tab}`}>
            {TAB_TITLES[tab]}
          </a>
        ))}
      </nav>
      {props.tab === 'graph' && <GraphTab job={job} history={history.current} />}
      {props.tab === 'checkpoints' && <CheckpointsTab jobId={job.jid} />}
      {props.tab === 'exceptions' && <ExceptionsTab jobId={job.jid} />}
      {error !== undefined && <p class="error">Last refresh failed: {error.message}</p>}
    </section>
  );
}
