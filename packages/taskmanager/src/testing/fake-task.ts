import { TaskState } from '@weir/common';
import type { TaskOptions } from '@weir/runtime';
import type { RunnableTask, TaskFactory } from '../deploy/types.ts';

/** A task double: start reports INITIALIZING and RUNNING; the test finishes or fails it; cancel reports CANCELED. */
export class FakeTask implements RunnableTask {
  readonly options: TaskOptions;
  started = false;
  cancelled = false;

  constructor(options: TaskOptions) {
    this.options = options;
  }

  start(): void {
    this.started = true;
    this.options.onStateChange({ state: TaskState.INITIALIZING });
    this.options.onStateChange({ state: TaskState.RUNNING });
  }

  finish(): void {
    this.options.onStateChange({ state: TaskState.FINISHED });
  }

  fail(message: string, code: string): void {
    this.options.onStateChange({ state: TaskState.FAILED, failure: { message, code } });
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    this.options.onStateChange({ state: TaskState.CANCELING });
    this.options.onStateChange({ state: TaskState.CANCELED });
  }
}

export function fakeTaskFactory(): { tasks: FakeTask[]; createTask: TaskFactory } {
  const tasks: FakeTask[] = [];
  return {
    tasks,
    createTask: (options) => {
      const task = new FakeTask(options);
      tasks.push(task);
      return task;
    },
  };
}
