import type { TaskStateSnapshot, TimerHandle } from '@weir/common';
import type { CheckpointAck } from './checkpoint-messages.ts';

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

/** A triggered checkpoint waiting for an acknowledgement from every subtask of its attempt. */
export class PendingCheckpoint {
  readonly #waiting = new Map<string, CheckpointSubtask>();
  readonly #states = new Map<string, TaskStateSnapshot>();
  readonly totalTasks: number;
  /** Fires the expiry; cleared once the checkpoint is no longer pending. */
  timeout: TimerHandle | undefined;

  constructor(
    readonly checkpointId: number,
    readonly attempt: number,
    readonly timestamp: number,
    subtasks: readonly CheckpointSubtask[],
  ) {
    for (const subtask of subtasks) this.#waiting.set(keyOf(subtask.vertexId, subtask.index), subtask);
    this.totalTasks = subtasks.length;
  }

  acknowledge(ack: CheckpointAck): AckOutcome {
    const key = keyOf(ack.vertexId, ack.subtaskIndex);
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

  includes(vertexId: string, index: number): boolean {
    const key = keyOf(vertexId, index);
    return this.#waiting.has(key) || this.#states.has(key);
  }

  stateOf(vertexId: string, index: number): TaskStateSnapshot | undefined {
    return this.#states.get(keyOf(vertexId, index));
  }
}

function keyOf(vertexId: string, index: number): string {
  return `${vertexId}#${index}`;
}
