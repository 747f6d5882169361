import { isTerminalTaskState, TaskState, type Logger } from '@weir/common';
import type { TaskKey__Output, TaskStatusUpdate } from '@weir/rpc';
import type { TaskStateChange } from '@weir/runtime';
import type { RunnableTask } from './types.ts';

/**
 * One deployed task as the TaskManager tracks it: preparing (bundle, graph), then running
 * (a RunnableTask), then terminal. Forwards each state once to the JobManager.
 */
export class DeployedTask {
  readonly key: TaskKey__Output;
  readonly logger: Logger;
  readonly #report: (update: TaskStatusUpdate) => void;
  readonly #onTerminal: () => void;
  #task: RunnableTask | undefined;
  #lastState: TaskState | undefined;

  constructor(
    key: TaskKey__Output,
    logger: Logger,
    report: (update: TaskStatusUpdate) => void,
    onTerminal: () => void,
  ) {
    this.key = key;
    this.logger = logger;
    this.#report = report;
    this.#onTerminal = onTerminal;
  }

  get isTerminal(): boolean {
    return this.#lastState !== undefined && isTerminalTaskState(this.#lastState);
  }

  /** The prepared task; the caller starts it. */
  attach(task: RunnableTask): void {
    this.#task = task;
  }

  onStateChange(change: TaskStateChange): void {
    // The TaskManager reports DEPLOYING itself, and the task may too: report each state once.
    if (this.isTerminal || change.state === this.#lastState) return;
    this.#lastState = change.state;
    this.#report({
      task: this.key,
      state: change.state,
      failureCause: change.failure?.message ?? '',
      failureCode: change.failure?.code ?? '',
    });
    if (isTerminalTaskState(change.state)) this.#onTerminal();
  }

  /** Resolves once the task is terminal; a task still preparing is CANCELED at once and never starts. */
  async cancel(): Promise<void> {
    if (this.isTerminal) return;
    if (this.#task === undefined) {
      this.onStateChange({ state: TaskState.CANCELED });
      return;
    }
    try {
      await this.#task.cancel();
    } catch (error) {
      this.logger.warn({ err: error }, 'cancelling the task failed');
    }
  }
}
