import { CheckpointFailureReason, type TaskStateSnapshot } from '@weir/common';
import type { AcknowledgeCheckpoint__Output, DeclineCheckpoint__Output } from '@weir/rpc';

/** Which subtask of which attempt a checkpoint message is about, and the TaskManager it came from. */
export interface CheckpointTask {
  readonly taskManagerId: string;
  readonly jobId: string;
  readonly attempt: number;
  readonly vertexId: string;
  readonly subtaskIndex: number;
  readonly checkpointId: number;
}

export interface CheckpointTaskMetrics {
  readonly syncMs: number;
  readonly asyncMs: number;
  readonly alignmentMs: number;
  readonly stateBytes: number;
  readonly unaligned: boolean;
  readonly persistedBytes: number;
}

/** A task's snapshot for a checkpoint is durable. */
export interface CheckpointAck extends CheckpointTask {
  readonly state: TaskStateSnapshot;
  readonly metrics: CheckpointTaskMetrics;
}

/** A task cannot take a checkpoint. */
export interface CheckpointDecline extends CheckpointTask {
  readonly reason: CheckpointFailureReason;
  readonly message: string;
}

const reasons = new Set<string>(Object.values(CheckpointFailureReason));

/**
 * The acknowledgement in `message`; an acknowledgement whose state is not TaskStateSnapshot
 * JSON counts as a decline, since its checkpoint could never be restored. A string says why
 * the message names no task at all.
 */
export function parseAcknowledge(taskManagerId: string, message: AcknowledgeCheckpoint__Output): CheckpointAck | CheckpointDecline | string {
  const task = taskOf(taskManagerId, message);
  if (typeof task === 'string') return task;
  const state = parseSnapshot(message.state);
  if (typeof state === 'string') {
    return { ...task, reason: CheckpointFailureReason.DECLINED, message: `its acknowledgement carried no valid state: ${state}` };
  }
  const metrics = message.metrics;
  return {
    ...task,
    state,
    metrics: {
      syncMs: metrics?.syncMs ?? 0,
      asyncMs: metrics?.asyncMs ?? 0,
      alignmentMs: metrics?.alignmentMs ?? 0,
      stateBytes: Number(metrics?.stateBytes ?? 0),
      unaligned: metrics?.unaligned ?? false,
      persistedBytes: Number(metrics?.persistedBytes ?? 0),
    },
  };
}

/** The decline in `message`; a reason code Weir does not know becomes CHECKPOINT_DECLINED. */
export function parseDecline(taskManagerId: string, message: DeclineCheckpoint__Output): CheckpointDecline | string {
  const task = taskOf(taskManagerId, message);
  if (typeof task === 'string') return task;
  const known = reasons.has(message.reasonCode);
  return {
    ...task,
    reason: known ? (message.reasonCode as CheckpointFailureReason) : CheckpointFailureReason.DECLINED,
    message: known || message.reasonCode === '' ? message.message : `${message.message} [${message.reasonCode}]`,
  };
}

function taskOf(
  taskManagerId: string,
  message: { task: AcknowledgeCheckpoint__Output['task']; checkpointId: number | string },
): CheckpointTask | string {
  if (message.task === null) return 'the checkpoint message names no task';
  const checkpointId = Number(message.checkpointId);
  if (!Number.isSafeInteger(checkpointId) || checkpointId < 1) return `checkpoint ID ${String(message.checkpointId)} is not a positive integer`;
  return {
    taskManagerId,
    jobId: message.task.jobId,
    attempt: message.task.attempt,
    vertexId: message.task.vertexId,
    subtaskIndex: message.task.subtaskIndex,
    checkpointId,
  };
}

function parseSnapshot(bytes: Buffer): TaskStateSnapshot | string {
  // proto3 cannot tell empty bytes from unset ones: a task without state may send nothing.
  if (bytes.length === 0) return { operators: {} };
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  const operators = (value as { operators?: unknown } | null)?.operators;
  if (typeof operators !== 'object' || operators === null || Array.isArray(operators)) {
    return 'a TaskStateSnapshot is an object with an "operators" object';
  }
  return value as TaskStateSnapshot;
}
