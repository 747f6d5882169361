import type { JobMaster } from '../../job/job-master.ts';
import type { MetricStore, TaskManagerMetrics } from '../../metrics/metric-store.ts';
import type { RegisteredTaskManager } from '../../registry/task-manager-registry.ts';
import type { SlotPool } from '../../scheduler/slot-pool.ts';
import type { LeaderView } from '../rest-context.ts';
import { jobCounts } from './job-view.ts';

/** GET /overview: TaskManagers, slots and jobs by state, and the leading JobManager (the one answering). */
export function clusterOverview(taskManagers: readonly RegisteredTaskManager[], slotPool: SlotPool, jobs: readonly JobMaster[], version: string, leader: LeaderView): object {
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
    leader: { address: leader.address, 'rest-url': leader.restUrl, epoch: leader.epoch },
  };
}

/** A TaskManager's process metrics in Flink's names where Flink has them (heap, garbage collectors), Node's for the rest; null before its first report. */
function processMetrics(reported: TaskManagerMetrics | undefined): object | null {
  if (reported === undefined) return null;
  const p = reported.process;
  return {
    heapUsed: p.heapUsedBytes,
    heapCommitted: p.heapTotalBytes,
    heapMax: p.heapMaxBytes,
    rss: p.rssBytes,
    external: p.externalBytes,
    garbageCollectors: [{ name: 'v8', count: p.gcCount, time: Math.round(p.gcTimeMs) }],
    eventLoopDelayMean: p.eventLoopDelayMeanMs,
    eventLoopDelayP99: p.eventLoopDelayP99Ms,
    eventLoopDelayMax: p.eventLoopDelayMaxMs,
    cpuUser: Math.round(p.cpuUserMs),
    cpuSystem: Math.round(p.cpuSystemMs),
    uptime: Math.round(p.uptimeMs),
    updated: reported.receivedAtMs,
  };
}

/** One TaskManager in GET /taskmanagers (Flink's TaskManagerInfo, with the slots it has free and its process metrics). */
export function taskManagerSummary(tm: RegisteredTaskManager, slotPool: SlotPool, metrics: MetricStore): object {
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
    metrics: processMetrics(metrics.taskManager(tm.id)),
  };
}

/** GET /taskmanagers/:id: the summary plus which job holds each slot. */
export function taskManagerDetails(tm: RegisteredTaskManager, slotPool: SlotPool, metrics: MetricStore): object {
  const slots = slotPool.slotsOf(tm.id);
  return {
    ...taskManagerSummary(tm, slotPool, metrics),
    allocatedSlots: (slots?.jobs ?? []).map((jobId, index) => ({ index, jobId })),
  };
}
