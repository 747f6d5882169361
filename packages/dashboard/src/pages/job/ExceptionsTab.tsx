import { api, type Exceptions } from '../../api.ts';
import { Table, type Column } from '../../components/Table.tsx';
import { formatDuration, formatTime } from '../../format.ts';
import { usePoll } from '../../poll.ts';

type Entry = Exceptions['exceptionHistory']['entries'][number];

const COLUMNS: readonly Column<Entry>[] = [
  { title: 'Time', render: (e) => formatTime(e.timestamp) },
  { title: 'Attempt', render: (e) => e.attempt, align: 'right' },
  { title: 'Code', render: (e) => <code>{e.exceptionName}</code> },
  { title: 'Task', render: (e) => e.taskName ?? '–' },
  { title: 'TaskManager', render: (e) => e.taskManagerId ?? '–' },
  { title: 'Exception', render: (e) => <pre class="stack">{e.stacktrace}</pre> },
  { title: 'Then', render: (e) => (e.restarted === null ? '…' : e.restarted ? `restarted after ${formatDuration(e.restartDelay ?? 0)}` : 'job FAILED') },
  { title: 'Came with it', render: (e) => e.concurrentExceptions.map((c) => <div title={c.stacktrace}><code>{c.exceptionName}</code> {c.taskName ?? ''}</div>) },
];

/** The root exception and each attempt's root failure, newest first. */
export function ExceptionsTab(props: { jobId: string }) {
  const data = usePoll(() => api.exceptions(props.jobId), `exceptions-${props.jobId}`).data;
  if (data === undefined) return <p>Loading exceptions…</p>;
  return (
    <div>
      <h3>Root exception</h3>
      <pre class="stack" data-testid="root-exception">{data['root-exception'] ?? 'No failure so far.'}</pre>
      <h3>Exception history{data.exceptionHistory.truncated ? ' (older entries dropped)' : ''}</h3>
      <Table columns={COLUMNS} rows={data.exceptionHistory.entries} rowKey={(e) => `${e.timestamp}-${e.attempt}`} testId="exception-history" empty="No failure so far." />
    </div>
  );
}
