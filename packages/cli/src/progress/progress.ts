import type { TimerHandle } from '@weir/common';
import type { CliContext } from '../context.ts';

/** How often a long operation says it is still going: often enough to show life, rarely enough to read. */
export const PROGRESS_INTERVAL_MS = 5_000;

/**
 * Progress of a long operation on stderr, one plain line per update so logs and pipes get no
 * spinner escape codes: the start line at once, then every few seconds what it still waits for
 * and the time since the start. Stdout stays free for the result.
 */
export class Progress {
  #waitingFor: string;
  #timer: TimerHandle | undefined;
  readonly #startedAt: number;

  private constructor(
    private readonly context: CliContext,
    waitingFor: string,
  ) {
    this.#waitingFor = waitingFor;
    this.#startedAt = context.clock.now();
  }

  /** Prints `line` and starts the updates, which name `waitingFor` ("the savepoint"). */
  static start(context: CliContext, line: string, waitingFor: string): Progress {
    context.err(line);
    const progress = new Progress(context, waitingFor);
    progress.#schedule();
    return progress;
  }

  /** Later updates name this instead, for an operation with a second phase. */
  waitingFor(what: string): void {
    this.#waitingFor = what;
  }

  stop(): void {
    if (this.#timer !== undefined) this.context.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    this.#timer = this.context.clock.setTimeout(() => {
      const seconds = Math.round((this.context.clock.now() - this.#startedAt) / 1_000);
      this.context.err(`Still waiting for ${this.#waitingFor}: ${seconds} s elapsed`);
      this.#schedule();
    }, PROGRESS_INTERVAL_MS);
  }
}
