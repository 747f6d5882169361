import { api, type JobSummary, type Overview } from '../api.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { Table, type Column } from '../components/Table.tsx';
import { formatDuration, formatTime } from '../format.ts';
import { usePoll } from '../poll.ts';
import { jobHref } from '../router.ts';

const JOB_COLUMNS: readonly Column<JobSummary>[] = [
  { title: 'Job', render: (j) => <a href={jobHref(j.jid)} data-testid="job-link">{j.name}</a> },
  { title: 'ID', render: (j) => <code>{j.jid}</code> },
  { title: 'Status', render: (j) => <StatusBadge status={j.state} /> },
  { title: 'Started', render: (j) => formatTime(j['start-time']) },
  { title: 'Duration', render: (j) => formatDuration(j.duration), align: 'right' },
  { title: 'Tasks', render: (j) => `${j.tasks.running ?? 0} running / ${j.tasks.total ?? 0}`, align: 'right' },
];

/** TaskManagers, slots and the cluster's jobs; the overview comes from the App, which polls it for the header too. */
export function OverviewPage(props: { overview: Overview | undefined }) {
  const { overview } = props;
  const jobs = usePoll(api.jobs, 'jobs').data?.jobs ?? [];
  return (
    <section>
      <div class="cards">
        <Card label="TaskManagers" value={overview?.taskmanagers} testId="overview-taskmanagers" />
        <Card label="Slots available / total" value={overview === undefined ? undefined : `${overview['slots-available']} / ${overview['slots-total']}`} />
        <Card label="Running jobs" value={overview?.['jobs-running']} />
        <Card label="Finished · canceled · failed" value={overview === undefined ? undefined : `${overview['jobs-finished']} · ${overview['jobs-cancelled']} · ${overview['jobs-failed']}`} />
      </div>
      <h2>Jobs</h2>
      <Table columns={JOB_COLUMNS} rows={[...jobs].reverse()} rowKey={(j) => j.jid} testId="jobs" empty="No jobs yet: submit one with weir run." />
    </section>
  );
}

function Card(props: { label: string; value: string | number | undefined; testId?: string }) {
  return (
    <div class="card">
      <div class="card-value" data-testid={props.testId}>
        {props.value ?? '…'}
      </div>
      <div class="card-label">{props.label}</div>
    </div>
  );
}
