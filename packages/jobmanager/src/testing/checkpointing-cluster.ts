import { TaskState, type CheckpointFailureReason, type TaskStateSnapshot } from '@weir/common';
import type { JobGraph } from '@weir/api';
import { recordingLogger } from '@weir/common/testing';
import { MemoryStorage } from '@weir/storage/testing';
import type { JobSpec } from '../job/job-spec.ts';
import type { RestartStrategySettings } from '@weir/api';
import type { CheckpointingSettings } from '../settings/job-settings.ts';
import { cluster, pipeline } from './cluster.ts';
import { jobSpec } from './fixtures.ts';

export const INTERVAL = 1_000;
export const TIMEOUT = 10_000;

/** Checkpoints every second into a memory storage, timeout 10 s, nothing tolerated, one retained. */
export function checkpointSettings(overrides: Partial<CheckpointingSettings> = {}): CheckpointingSettings {
  return {
    intervalMs: INTERVAL,
    mode: 'EXACTLY_ONCE',
    minPauseMs: 0,
    timeoutMs: TIMEOUT,
    maxConcurrent: 1,
    tolerableFailures: 0,
    externalizedCleanup: 'NO_EXTERNALIZED_CHECKPOINTS',
    numRetained: 1,
    backend: 'filesystem',
    maxInlineBytes: 0,
    asyncSnapshots: true,
    directory: 'memory://cp',
    incremental: false,
    unaligned: false,
    alignedCheckpointTimeoutMs: 0,
    ...overrides,
  };
}

export interface CheckpointingJob {
  readonly checkpointing?: Partial<CheckpointingSettings>;
  readonly restartStrategy?: RestartStrategySettings;
  readonly graph?: JobGraph;
  /** false: the memory backend without a directory (no storage at all). */
  readonly storage?: boolean;
}

/** The snapshot a fake task acknowledges with: one operator-state file of its own below `chk-<n>/`. */
export function taskState(task: string): TaskStateSnapshot {
  const [vertexId, index] = task.split('#');
  return {
    operators: {
      [`op-${vertexId}`]: { operator: [{ handle: { kind: 'file', path: `op-${vertexId}-${index}`, size: 10 }, states: { list: { mode: 'split' } } }] },
    },
  };
}

/**
 * The JobMaster tests' world (a Dispatcher, fake TaskManagers, a ManualClock at 1 000) with a
 * job that takes checkpoints into a MemoryStorage, and fake tasks that write their state file,
 * acknowledge, or decline.
 */
export function checkpointingCluster(taskManagers: Record<string, number>, job: CheckpointingJob = {}) {
  const { logger, warnings } = recordingLogger();
  const c = cluster(taskManagers, logger);
  const storage = new MemoryStorage('memory://cp');
  const settings = checkpointSettings(job.storage === false ? { backend: 'memory', maxInlineBytes: 1_000, directory: undefined, ...job.checkpointing } : job.checkpointing);
  const spec: JobSpec = jobSpec(job.graph ?? pipeline, 'job-1', { checkpointing: settings, stateBackend: settings.backend === 'level' ? 'level' : 'heap', restartStrategy: job.restartStrategy ?? { kind: 'none' } });
  const master = c.dispatcher.submit(spec, job.storage === false ? undefined : storage);

  const locate = (task: string): { vertexId: string; index: number; taskManagerId: string } => {
    const [vertexId, index] = task.split('#');
    const subtask = master.subtasks().find((s) => s.vertexId === vertexId && s.index === Number(index));
    if (subtask === undefined) throw new Error(`no subtask ${task} deployed`);
    return { vertexId: vertexId!, index: Number(index), taskManagerId: subtask.taskManagerId };
  };
  const tasks = (): string[] => master.subtasks().map((s) => `${s.vertexId}#${s.index}`);
  const key = (vertexId: string, index: number) => ({ jobId: 'job-1', attempt: master.attempt, vertexId, subtaskIndex: index });

  /** Every deployed subtask of the current attempt reports `state`. */
  const reportAll = (state: TaskState) => {
    for (const s of [...master.subtasks()]) c.report('job-1', s.taskManagerId, `${s.vertexId}#${s.index}`, state, { attempt: master.attempt });
  };

  /** The task writes its state file below `chk-<n>/` (filesystem backend). */
  const writeState = async (checkpointId: number, task: string) => {
    const { vertexId, index } = locate(task);
    if (job.storage !== false) await storage.write(`job-1/chk-${checkpointId}/op-${vertexId}-${index}`, Buffer.from(`state of ${task}`));
  };
  /** The task acknowledges with `taskState(task)`. */
  const acknowledge = (checkpointId: number, task: string, metrics = { syncMs: 1, asyncMs: 2, alignmentMs: 3, stateBytes: 10, checkpointedBytes: 4, unaligned: false, persistedBytes: 0 }) => {
    const { vertexId, index, taskManagerId } = locate(task);
    c.dispatcher.acknowledgeCheckpoint(taskManagerId, {
      task: key(vertexId, index),
      checkpointId,
      state: Buffer.from(JSON.stringify(taskState(task))),
      metrics,
    });
  };
  const ack = async (checkpointId: number, task: string) => {
    await writeState(checkpointId, task);
    acknowledge(checkpointId, task);
  };
  const ackAll = async (checkpointId: number, except: readonly string[] = []) => {
    for (const task of tasks()) if (!except.includes(task)) await ack(checkpointId, task);
  };
  const decline = (checkpointId: number, task: string, reasonCode: CheckpointFailureReason | string, message: string) => {
    const { vertexId, index, taskManagerId } = locate(task);
    c.dispatcher.declineCheckpoint(taskManagerId, { task: key(vertexId, index), checkpointId, reasonCode, message });
  };

  /** The task's input ended and it awaits its final checkpoint, having taken `lastCheckpointBeforeEnd` before (as sent from `taskManagerId`). */
  const awaitFinal = (task: string, lastCheckpointBeforeEnd = 0, taskManagerId = locate(task).taskManagerId) => {
    const { vertexId, index } = locate(task);
    c.dispatcher.awaitingFinalCheckpoint(taskManagerId, { task: key(vertexId, index), lastCheckpointBeforeEnd });
  };
  /** The task of the current attempt reports FINISHED. */
  const finish = (task: string) => {
    const { taskManagerId } = locate(task);
    c.report('job-1', taskManagerId, task, TaskState.FINISHED, { attempt: master.attempt });
  };

  /** `<checkpointId> <vertex#index>@<tm>` of every trigger sent so far. */
  const triggers = (): string[] =>
    c.gateway.sent
      .filter((m) => m.message.triggerCheckpoint)
      .map((m) => {
        const t = m.message.triggerCheckpoint!;
        return `${String(t.checkpointId)} ${t.task!.vertexId}#${t.task!.subtaskIndex}@${m.taskManagerId}`;
      });
  /** `<checkpointId> completed|aborted <vertex#index>` of every notification sent so far. */
  const notifications = (): string[] =>
    c.gateway.sent
      .filter((m) => m.message.notifyCheckpoint)
      .map((m) => {
        const n = m.message.notifyCheckpoint!;
        return `${String(n.checkpointId)} ${n.completed ? 'completed' : 'aborted'} ${n.task!.vertexId}#${n.task!.subtaskIndex}`;
      });

  return { ...c, warnings, storage, settings, master, tasks, reportAll, writeState, acknowledge, ack, ackAll, decline, awaitFinal, finish, triggers, notifications };
}

/** `pipeline`'s subtasks. */
export const PIPELINE_TASKS = ['src#0', 'src#1', 'map#0', 'map#1', 'map#2', 'sink#0'];

/** `pipeline` checkpointing on tm-1 and tm-2 (two slots each), every task RUNNING at t = 1 000: the first checkpoint is due at 2 000. */
export function runningCheckpointingJob(job: CheckpointingJob = {}) {
  const c = checkpointingCluster({ 'tm-1': 2, 'tm-2': 2 }, job);
  c.reportAll(TaskState.RUNNING);
  c.gateway.clear();
  return c;
}

/** Lets the storage's promises and everything waiting on them run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
