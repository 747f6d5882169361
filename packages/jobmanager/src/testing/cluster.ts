import { WeirError, type JobStatus, type Logger, type TaskState } from '@weir/common';
import { ManualClock, silentLogger } from '@weir/common/testing';
import type { JobGraph } from '@weir/api';
import { Dispatcher } from '../dispatcher.ts';
import { SlotPool } from '../scheduler/slot-pool.ts';
import { FakeGateway, jobGraph, vertex } from './fixtures.ts';

export const SLOT_TIMEOUT = 5_000;

/** A Dispatcher over a SlotPool and fake TaskManagers, with a ManualClock: the JobMaster tests' world. */
export function cluster(taskManagers: Record<string, number>, logger: Logger = silentLogger()) {
  const clock = new ManualClock(1_000);
  const slotPool = new SlotPool();
  const gateway = new FakeGateway();
  const dispatcher = new Dispatcher({ clock, logger, slotPool, gateway, slotRequestTimeoutMs: SLOT_TIMEOUT });
  const addTaskManager = (id: string, slots: number) => {
    gateway.connected.add(id);
    slotPool.addTaskManager(id, `${id}:7000`, slots);
    dispatcher.slotsMayBeAvailable();
  };
  const loseTaskManager = (id: string, reason: string) => {
    gateway.connected.delete(id);
    slotPool.removeTaskManager(id);
    dispatcher.taskManagerLost(id, new WeirError('TASK_MANAGER_LOST', `TaskManager ${id} lost: ${reason}`));
  };
  for (const [id, slots] of Object.entries(taskManagers)) addTaskManager(id, slots);
  const report = (
    jobId: string,
    taskManagerId: string,
    task: string,
    state: TaskState,
    failure: { cause?: string; code?: string; attempt?: number } = {},
  ) => {
    const [vertexId, index] = task.split('#');
    dispatcher.taskStatus(taskManagerId, {
      task: { jobId, attempt: failure.attempt ?? 0, vertexId: vertexId!, subtaskIndex: Number(index) },
      state,
      failureCause: failure.cause ?? '',
      failureCode: failure.code ?? '',
    });
  };
  return { clock, slotPool, gateway, dispatcher, addTaskManager, loseTaskManager, report };
}

/** source (p=2) -> map (p=3, hash) -> sink (p=1, rebalance): needs 3 slots. */
export const pipeline: JobGraph = jobGraph(vertex('src', 2), vertex('map', 3, [['src', 'hash']]), vertex('sink', 1, [['map', 'rebalance']]));

/** Where `pipeline` runs on tm-1 (2 slots) and tm-2 (2 slots). */
export const placement = ['src#0@tm-1', 'src#1@tm-2', 'map#0@tm-1', 'map#1@tm-2', 'map#2@tm-1', 'sink#0@tm-1'];

export function statuses(c: ReturnType<typeof cluster>, jobId: string): JobStatus[] {
  const seen: JobStatus[] = [];
  c.dispatcher.get(jobId).onStatusChange((s) => seen.push(s));
  return seen;
}
