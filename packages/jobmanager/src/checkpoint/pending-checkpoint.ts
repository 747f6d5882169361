import type { Addressed, CheckpointAck, OperatorSubtaskState, TaskStateSnapshot, TimerHandle } from '@weir/common';
import type { SavepointOperation } from '../savepoint/savepoint-operation.ts';
import type { CarriedState } from './finished-task-state.ts';

/** A subtask of the attempt a checkpoint was triggered in. */
export interface CheckpointSubtask {
  readonly vertexId: string;
  readonly index: number;
}

export const AckOutcome = {
  ACCEPTED: 'accepted',
  /** The subtask had acknowledged this checkpoint already. */
  DUPLICATE: 'duplicate',
  /** No such subtask takes part in this checkpoint. */
  UNKNOWN_TASK: 'unknown-task',
} as const;
export type AckOutcome = (typeof AckOutcome)[keyof typeof AckOutcome];

/**
 * A triggered checkpoint waiting for an acknowledgement from every subtask that takes part in
 * it; the others (finished tasks) are `carried`: their state comes from the latest completed
 * checkpoint once every acknowledgement is in.
 */
export class PendingCheckpoint {
  readonly #waiting = new Map<string, CheckpointSubtask>();
  readonly #states = new Map<string, TaskStateSnapshot>();
  readonly totalTasks: number;
  /** Fires the expiry; cleared once the checkpoint is no longer pending. */
  timeout: TimerHandle | undefined;
  /** The carried subtasks' state, set while finalizing. */
  carriedState: CarriedState | undefined;
  /** Split enumerator states, by operator ID, taken before the trigger went out. */
  coordinatorStates: ReadonlyMap<string, unknown> | undefined;

  constructor(
    readonly checkpointId: number,
    readonly attempt: number,
    readonly timestamp: number,
    subtasks: readonly CheckpointSubtask[],
    /** Set when this checkpoint ID is a savepoint. */
    readonly savepoint?: SavepointOperation,
    /** Subtasks that take no part: they finished, or all their producers did. */
    readonly carried: readonly CheckpointSubtask[] = [],
  ) {
    for (const subtask of subtasks) this.#waiting.set(keyOf(subtask.vertexId, subtask.index), subtask);
    this.totalTasks = subtasks.length;
  }

  acknowledge(ack: Addressed<CheckpointAck>): AckOutcome {
    const key = keyOf(ack.task.vertexId, ack.task.subtaskIndex);
    if (this.#states.has(key)) return AckOutcome.DUPLICATE;
    if (!this.#waiting.delete(key)) return AckOutcome.UNKNOWN_TASK;
    this.#states.set(key, ack.state);
    return AckOutcome.ACCEPTED;
  }

  get fullyAcknowledged(): boolean {
    return this.#waiting.size === 0;
  }

  get acknowledgedCount(): number {
    return this.#states.size;
  }

  /** The subtasks that have not acknowledged yet. */
  waitingFor(): CheckpointSubtask[] {
    return [...this.#waiting.values()];
  }

  /** Why it expired: how many acknowledged, and the first few subtasks it still waits for. */
  expiryMessage(timeoutMs: number, nameOf: (subtask: CheckpointSubtask) => string): string {
    const waiting = this.waitingFor().map(nameOf);
    const shown = waiting.length > 5 ? [...waiting.slice(0, 5), `${waiting.length - 5} more`] : waiting;
    const what = this.savepoint === undefined ? 'checkpoint' : 'savepoint';
    return `${what} ${this.checkpointId} expired after the checkpoint timeout of ${timeoutMs} ms with ${this.acknowledgedCount} of ${this.totalTasks} tasks acknowledged; still waiting for ${shown.join(', ')}`;
  }

  /** Whether the subtask takes part and has not acknowledged yet. */
  awaits(vertexId: string, index: number): boolean {
    return this.#waiting.has(keyOf(vertexId, index));
  }

  includes(vertexId: string, index: number): boolean {
    const key = keyOf(vertexId, index);
    return this.#waiting.has(key) || this.#states.has(key);
  }

  /** The subtask's acknowledged state, or for a carried subtask what it acknowledged last. */
  /** The operator states of every acknowledgement so far. */
  acknowledgedStates(): OperatorSubtaskState[] {
    return [...this.#states.values()].flatMap((snapshot) => Object.values(snapshot.operators));
  }

  stateOf(vertexId: string, index: number): TaskStateSnapshot | undefined {
    return this.#states.get(keyOf(vertexId, index)) ?? this.carriedState?.stateOf(vertexId, index);
  }
}

function keyOf(vertexId: string, index: number): string {
  return `${vertexId}#${index}`;
}
