import { api, type CheckpointEntry } from '../../api.ts';
import { LineChart } from '../../components/LineChart.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { Table, type Column } from '../../components/Table.tsx';
import { formatBytes, formatDuration, formatTime } from '../../format.ts';
import { usePoll } from '../../poll.ts';

const COLUMNS: readonly Column<CheckpointEntry>[] = [
  { title: 'ID', render: (c) => c.id, align: 'right' },
  { title: 'Status', render: (c) => <StatusBadge status={c.status} /> },
  { title: 'Type', render: (c) => c.checkpoint_type },
  { title: 'Triggered', render: (c) => formatTime(c.trigger_timestamp) },
  { title: 'Duration', render: (c) => formatDuration(c.end_to_end_duration), align: 'right' },
  { title: 'Full size', render: (c) => formatBytes(c.state_size), align: 'right' },
  { title: 'Checkpointed', render: (c) => formatBytes(c.checkpointed_size), align: 'right' },
  { title: 'Acks', render: (c) => `${c.num_acknowledged_subtasks}/${c.num_subtasks}`, align: 'right' },
  { title: 'Aligned', render: (c) => (c.unaligned ? 'unaligned' : 'aligned') },
  { title: 'In-flight bytes', render: (c) => formatBytes(c.persisted_data), align: 'right' },
  { title: 'Alignment', render: (c) => formatDuration(c.alignment_duration), align: 'right' },
  { title: 'Sync', render: (c) => formatDuration(c.sync_duration), align: 'right' },
  { title: 'Path / failure', render: (c) => <span class="path">{c.failure_message ?? c.external_path ?? ''}</span> },
];

/** Counts, what the job restored, duration and size over time, and the checkpoint history. */
export function CheckpointsTab(props: { jobId: string }) {
  const data = usePoll(() => api.checkpoints(props.jobId), `checkpoints-${props.jobId}`).data;
  if (data === undefined) return <p>Loading checkpoints…</p>;
  const { counts, latest } = data;
  const completed = data.history.filter((c) => c.status === 'COMPLETED').reverse();
  const restored = latest.restored;
  return (
    <div>
      <div class="cards">
        <div class="card"><div class="card-value" data-testid="checkpoints-completed">{counts.completed}</div><div class="card-label">completed</div></div>
        <div class="card"><div class="card-value">{counts.in_progress}</div><div class="card-label">in progress</div></div>
        <div class="card"><div class="card-value">{counts.failed}</div><div class="card-label">failed</div></div>
        <div class="card"><div class="card-value">{counts.restored}</div><div class="card-label">restored</div></div>
      </div>
      <p data-testid="restored">
        {restored === null
          ? 'The job has not restored a checkpoint.'
          : `Latest restore: restored from ${restored.is_savepoint ? 'savepoint' : 'checkpoint'} ${restored.id} (${formatBytes(restored.state_size)}) at ${formatTime(restored.restore_timestamp)}${restored.external_path === null ? '' : ` (${restored.external_path})`}`}
      </p>
      <p>
        Latest completed: {latest.completed === null ? 'none yet' : `checkpoint ${latest.completed.id} at ${formatTime(latest.completed.trigger_timestamp)}, ${formatDuration(latest.completed.end_to_end_duration)}, ${formatBytes(latest.completed.state_size)} (${formatBytes(latest.completed.checkpointed_size)} checkpointed)`}
      </p>
      {data.left_behind == null ? null : (
        <p data-testid="left-behind">
          {data.left_behind.files === 0
            ? `Left behind: none (counted ${formatTime(data.left_behind.counted_at)})`
            : `Left behind: ${data.left_behind.files} files, ${formatBytes(data.left_behind.bytes)}, in the checkpoint directory that no checkpoint uses (counted ${formatTime(data.left_behind.counted_at)})`}
        </p>
      )}
      <LineChart
        title="Completed checkpoints: duration and state size"
        testId="checkpoint-chart"
        x={completed.map((c) => c.trigger_timestamp)}
        ys={[completed.map((c) => c.end_to_end_duration), completed.map((c) => c.state_size)]}
        series={[
          { label: 'duration', color: '#1f77b4', format: formatDuration },
          { label: 'state size', color: '#ff7f0e', axis: 1, format: formatBytes },
        ]}
      />
      <h3>History</h3>
      <Table columns={COLUMNS} rows={data.history} rowKey={(c) => String(c.id)} testId="checkpoint-history" empty="No checkpoint yet." />
    </div>
  );
}
