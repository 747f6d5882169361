import { api, type TaskManager } from '../api.ts';
import { Table, type Column } from '../components/Table.tsx';
import { formatTime } from '../format.ts';
import { usePoll } from '../poll.ts';

const COLUMNS: readonly Column<TaskManager>[] = [
  { title: 'ID', render: (tm) => <code>{tm.id}</code> },
  { title: 'Data address', render: (tm) => tm.dataAddress },
  { title: 'PID', render: (tm) => tm.pid, align: 'right' },
  { title: 'Slots free / total', render: (tm) => `${tm.freeSlots} / ${tm.slotsNumber}`, align: 'right' },
  { title: 'Registered', render: (tm) => formatTime(tm.registeredAt) },
  { title: 'Last heartbeat', render: (tm) => formatTime(tm.timeSinceLastHeartbeat) },
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
