import { TaskState, isTerminalTaskState } from '@weir/common';

/** Where one subtask of the current attempt runs and what it last reported. */
export interface SubtaskExecution {
  readonly vertexId: string;
  readonly index: number;
  readonly taskManagerId: string;
  state: TaskState;
  /** Set when the subtask FAILED. */
  failureCause: string;
  /** When the JobManager deployed it (DEPLOYING) and learnt of each later state, ms since the epoch. */
  readonly timestamps: Partial<Record<TaskState, number>>;
}

/**
 * How long the subtask took to initialize: open its state backend, restore its state and open
 * its operators (INITIALIZING to RUNNING, as Flink's subtask status durations). Undefined
 * until it is RUNNING.
 */
export function initializationMs(subtask: SubtaskExecution): number | undefined {
  const { INITIALIZING: from, RUNNING: to } = subtask.timestamps;
  return from === undefined || to === undefined ? undefined : to - from;
}

/** The subtasks of one attempt of a job. */
export class Execution {
  readonly #subtasks = new Map<string, SubtaskExecution>();

  constructor(
    readonly attempt: number,
    subtasks: readonly SubtaskExecution[],
  ) {
    for (const subtask of subtasks) this.#subtasks.set(keyOf(subtask.vertexId, subtask.index), subtask);
  }

  get(vertexId: string, index: number): SubtaskExecution | undefined {
    return this.#subtasks.get(keyOf(vertexId, index));
  }

  all(): SubtaskExecution[] {
    return [...this.#subtasks.values()];
  }

  running(): SubtaskExecution[] {
    return this.all().filter((s) => !isTerminalTaskState(s.state));
  }

  allTerminal(): boolean {
    return this.running().length === 0;
  }

  allFinished(): boolean {
    return this.all().every((s) => s.state === TaskState.FINISHED);
  }

  /** Every subtask runs (its state restored) or already finished. */
  allRunning(): boolean {
    return this.all().every((s) => s.state === TaskState.RUNNING || s.state === TaskState.FINISHED);
  }
}

function keyOf(vertexId: string, index: number): string {
  return `${vertexId}#${index}`;
}
