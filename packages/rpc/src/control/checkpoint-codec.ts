import {
  CheckpointFailureReason,
  decodeTaskStateSnapshot,
  encodeTaskStateSnapshot,
  type Addressed,
  type AwaitingFinalCheckpoint,
  type CheckpointAck,
  type CheckpointDecline,
  type CheckpointNotification,
  type CheckpointTrigger,
  type RestoreShare,
  type SubtaskKey,
} from '@weir/common';
import type { AcknowledgeCheckpoint, AcknowledgeCheckpoint__Output } from '../generated/weir/v1/AcknowledgeCheckpoint.ts';
import type { AwaitingFinalCheckpoint as AwaitingFinalCheckpointMessage, AwaitingFinalCheckpoint__Output } from '../generated/weir/v1/AwaitingFinalCheckpoint.ts';
import type { DeclineCheckpoint, DeclineCheckpoint__Output } from '../generated/weir/v1/DeclineCheckpoint.ts';
import type { NotifyCheckpoint, NotifyCheckpoint__Output } from '../generated/weir/v1/NotifyCheckpoint.ts';
import type { TaskKey__Output } from '../generated/weir/v1/TaskKey.ts';
import type { TaskRestore, TaskRestore__Output } from '../generated/weir/v1/TaskRestore.ts';
import type { TriggerCheckpoint, TriggerCheckpoint__Output } from '../generated/weir/v1/TriggerCheckpoint.ts';
import { decodeCheckpointOptions, encodeCheckpointOptions } from './checkpoint-options.ts';
import { decodeTaskKey, encodeTaskKey } from './task-key-codec.ts';

/**
 * The checkpoint messages of the JobManager↔TaskManager control stream: for each, one encoder
 * (what the sender calls) and one decoder (what the receiver calls), between the proto types
 * and the domain messages of @weir/common (`checkpoint/messages.ts`). A decoder returns a
 * string when the message is unusable (names no task, a checkpoint ID that is no positive
 * integer): the receiver logs it and drops the message. See README.md, "Adding a control message".
 */

const reasons = new Set<string>(Object.values(CheckpointFailureReason));

/** JobManager → task. Options of a plain checkpoint are left unset. */
export function encodeTrigger(trigger: Addressed<CheckpointTrigger>): TriggerCheckpoint {
  const options = encodeCheckpointOptions(trigger.options);
  return { task: encodeTaskKey(trigger.task), checkpointId: trigger.checkpointId, timestampMs: trigger.timestamp, ...(options && { options }) };
}

/** Throws INVALID_CHECKPOINT_OPTIONS for options no task can honour: the task declines such a trigger. */
export function decodeTrigger(message: TriggerCheckpoint__Output): Addressed<CheckpointTrigger> | string {
  const addressed = addressOf(message, 'checkpoint trigger');
  if (typeof addressed === 'string') return addressed;
  return { ...addressed, timestamp: message.timestampMs, options: decodeCheckpointOptions(message.options) };
}

export function encodeNotification(notification: Addressed<CheckpointNotification>): NotifyCheckpoint {
  return { task: encodeTaskKey(notification.task), checkpointId: notification.checkpointId, completed: notification.completed };
}

export function decodeNotification(message: NotifyCheckpoint__Output): Addressed<CheckpointNotification> | string {
  const addressed = addressOf(message, 'checkpoint notification');
  if (typeof addressed === 'string') return addressed;
  return { ...addressed, completed: message.completed };
}

/** Task → JobManager: the snapshot as TaskStateSnapshot JSON, the figures in whole milliseconds. */
export function encodeAck(ack: Addressed<CheckpointAck>): AcknowledgeCheckpoint {
  const { metrics } = ack;
  return {
    task: encodeTaskKey(ack.task),
    checkpointId: ack.checkpointId,
    state: encodeTaskStateSnapshot(ack.state),
    metrics: {
      // The runtime measures with fractions.
      syncMs: Math.round(metrics.syncMs),
      asyncMs: Math.round(metrics.asyncMs),
      alignmentMs: Math.round(metrics.alignmentMs),
      stateBytes: metrics.stateBytes,
      checkpointedBytes: metrics.checkpointedBytes,
      unaligned: metrics.unaligned,
      persistedBytes: metrics.persistedBytes,
    },
  };
}

/**
 * The acknowledgement in `message`. One whose state is no valid TaskStateSnapshot reads as a
 * decline (CHECKPOINT_DECLINED): its checkpoint could never be restored.
 */
export function decodeAck(message: AcknowledgeCheckpoint__Output): Addressed<CheckpointAck> | Addressed<CheckpointDecline> | string {
  const addressed = addressOf(message, 'checkpoint acknowledgement');
  if (typeof addressed === 'string') return addressed;
  const state = decodeTaskStateSnapshot(message.state);
  if (typeof state === 'string') return { ...addressed, reason: CheckpointFailureReason.DECLINED, message: `its acknowledgement carried no valid state: ${state}` };
  const metrics = message.metrics;
  return {
    ...addressed,
    state,
    metrics: {
      syncMs: metrics?.syncMs ?? 0,
      asyncMs: metrics?.asyncMs ?? 0,
      alignmentMs: metrics?.alignmentMs ?? 0,
      stateBytes: Number(metrics?.stateBytes ?? 0),
      checkpointedBytes: Number(metrics?.checkpointedBytes ?? 0),
      unaligned: metrics?.unaligned ?? false,
      persistedBytes: Number(metrics?.persistedBytes ?? 0),
    },
  };
}

export function encodeDecline(decline: Addressed<CheckpointDecline>): DeclineCheckpoint {
  return { task: encodeTaskKey(decline.task), checkpointId: decline.checkpointId, reasonCode: decline.reason, message: decline.message };
}

/** The decline in `message`; a reason code Weir does not know becomes CHECKPOINT_DECLINED, keeping the code in the message. */
export function decodeDecline(message: DeclineCheckpoint__Output): Addressed<CheckpointDecline> | string {
  const addressed = addressOf(message, 'checkpoint decline');
  if (typeof addressed === 'string') return addressed;
  const known = reasons.has(message.reasonCode);
  return {
    ...addressed,
    reason: known ? (message.reasonCode as CheckpointFailureReason) : CheckpointFailureReason.DECLINED,
    message: known || message.reasonCode === '' ? message.message : `${message.message} [${message.reasonCode}]`,
  };
}

/** Task → JobManager, once its input ended. */
export function encodeAwaitingFinalCheckpoint(message: Addressed<AwaitingFinalCheckpoint>): AwaitingFinalCheckpointMessage {
  return { task: encodeTaskKey(message.task), lastCheckpointBeforeEnd: message.lastCheckpointBeforeEnd };
}

export function decodeAwaitingFinalCheckpoint(message: AwaitingFinalCheckpoint__Output): Addressed<AwaitingFinalCheckpoint> | string {
  if (message.task === null) return 'the report of an ended input names no task';
  const last = Number(message.lastCheckpointBeforeEnd);
  if (!Number.isSafeInteger(last) || last < 0) return `checkpoint ID ${String(message.lastCheckpointBeforeEnd)} is not a non-negative integer`;
  return { task: decodeTaskKey(message.task), lastCheckpointBeforeEnd: last };
}

/** JobManager → task, inside DeployTask. */
export function encodeRestoreShare(share: RestoreShare): TaskRestore {
  return { checkpointId: share.checkpointId, state: encodeTaskStateSnapshot(share.state), checkpointPath: share.checkpointPath };
}

/** The share in `message`, or a phrase saying what is wrong with its state ("not JSON (…)", "not an object with …"). */
export function decodeRestoreShare(message: TaskRestore__Output): RestoreShare | string {
  const state = decodeTaskStateSnapshot(message.state);
  if (typeof state === 'string') return state;
  return { checkpointId: message.checkpointId, state, checkpointPath: message.checkpointPath };
}

function addressOf(message: { task: TaskKey__Output | null; checkpointId: number }, what: string): { task: SubtaskKey; checkpointId: number } | string {
  if (message.task === null) return `the ${what} names no task`;
  const checkpointId = Number(message.checkpointId);
  if (!Number.isSafeInteger(checkpointId) || checkpointId < 1) return `checkpoint ID ${String(message.checkpointId)} is not a positive integer`;
  return { task: decodeTaskKey(message.task), checkpointId };
}
