import type { InputStatus } from '@weir/api';
import type { TaskInput } from './task-input.ts';

const NEVER: Promise<void> = new Promise(() => {});

/**
 * A source task after its reader's end of input: no records, but the task stays up for
 * checkpoint triggers (mail) until `done` says its final checkpoint completed.
 */
export class EndedSourceInput implements TaskInput {
  constructor(private readonly done: () => boolean) {}

  emitNext(): InputStatus {
    return this.done() ? 'end-of-input' : 'nothing-available';
  }

  whenAvailable(): Promise<void> {
    return NEVER;
  }
}
