import { api, type TaskManager } from '../api.ts';
import { Table, type Column } from '../components/Table.tsx';
import { formatBytes, formatDuration, formatTime } from '../format.ts';
import { usePoll } from '../poll.ts';

const COLUMNS: readonly Column<TaskManager>[] = [
  { title: 'ID', render: (tm) => <code>{tm.id}</code> },
  { title: 'Data address', render: (tm) => tm.dataAddress },
  { title: 'PID', render: (tm) => tm.pid, align: 'right' },
  { title: 'Slots free / total', render: (tm) => `${tm.freeSlots} / ${tm.slotsNumber}`, align: 'right' },
  { title: 'Registered', render: (tm) => formatTime(tm.registeredAt) },
  { title: 'Last heard from', render: (tm) => formatTime(tm.timeSinceLastHeartbeat) },
  { title: 'Heap used / max', render: (tm) => (tm.metrics === null ? '–' : `${formatBytes(tm.metrics.heapUsed)} / ${formatBytes(tm.metrics.heapMax)}`), align: 'right' },
  { title: 'RSS', render: (tm) => (tm.metrics === null ? '–' : formatBytes(tm.metrics.rss)), align: 'right' },
  { title: 'Event-loop delay p99', render: (tm) => (tm.metrics === null ? '–' : formatDuration(tm.metrics.eventLoopDelayP99)), align: 'right' },
  { title: 'GC time', render: (tm) => (tm.metrics === null ? '–' : formatDuration(tm.metrics.garbageCollectors.reduce((t, gc) => t + gc.time, 0))), align: 'right' },
  { title: 'CPU time', render: (tm) => (tm.metrics === null ? '–' : formatDuration(tm.metrics.cpuUser + tm.metrics.cpuSystem)), align: 'right' },
];

/** The registered TaskManagers with their slots. */
export function TaskManagersPage() {
  const taskManagers = usePoll(api.taskManagers, 'taskmanagers').data?.taskmanagers ?? [];
  return (
    <section>
      <h2>TaskManagers</h2>
      <Table columns={COLUMNS} rows={taskManagers} rowKey={(tm) => tm.id} testId="taskmanagers" empty="No TaskManager has registered." />
    </section>
  );
}
