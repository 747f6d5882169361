import type { JobMaster } from '../../job/job-master.ts';
import type { RegisteredTaskManager } from '../../registry/task-manager-registry.ts';
import type { SlotPool } from '../../scheduler/slot-pool.ts';
import { jobCounts } from './job-view.ts';

/** GET /overview: TaskManagers, slots and jobs by state. */
export function clusterOverview(taskManagers: readonly RegisteredTaskManager[], slotPool: SlotPool, jobs: readonly JobMaster[], version: string): object {
  const slots = slotPool.stats();
  const counts = jobCounts(jobs);
  return {
    taskmanagers: taskManagers.length,
    'slots-total': slots.total,
    'slots-available': slots.free,
    'jobs-running': counts.running,
    'jobs-finished': counts.finished,
    'jobs-cancelled': counts.cancelled,
    'jobs-failed': counts.failed,
    'weir-version': version,
  };
}

/** One TaskManager in GET /taskmanagers (Flink's TaskManagerInfo, with the slots it has free). */
export function taskManagerSummary(tm: RegisteredTaskManager, slotPool: SlotPool): object {
  const slots = slotPool.slotsOf(tm.id);
  return {
    id: tm.id,
    path: tm.dataAddress,
    dataAddress: tm.dataAddress,
    dataPort: Number(tm.dataAddress.slice(tm.dataAddress.lastIndexOf(':') + 1)),
    pid: tm.pid,
    registeredAt: tm.registeredAtMs,
    timeSinceLastHeartbeat: tm.lastSeenMs,
    slotsNumber: slots?.total ?? tm.slots,
    freeSlots: slots?.free ?? 0,
  };
}

/** GET /taskmanagers/:id: the summary plus which job holds each slot. */
export function taskManagerDetails(tm: RegisteredTaskManager, slotPool: SlotPool): object {
  const slots = slotPool.slotsOf(tm.id);
  return {
    ...taskManagerSummary(tm, slotPool),
    allocatedSlots: (slots?.jobs ?? []).map((jobId, index) => ({ index, jobId })),
  };
}
