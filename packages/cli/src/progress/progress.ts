import type { TimerHandle } from '@weir/common';
import type { CliContext } from '../context.ts';

/** How often the status line is redrawn: the elapsed time ticks visibly. */
export const REDRAW_INTERVAL_MS = 250;
/** How often the details (acks, job status) are asked for while the operation lasts. */
export const DETAIL_INTERVAL_MS = 500;

/** Asks for what the status line adds to the elapsed time ("checkpoint 7: 3/4 acks"); undefined adds nothing. */
export type ProgressDetail = () => Promise<string | undefined>;

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Progress of a command that waits. The start line goes to stderr at once; then, on a
 * terminal only, a status line below it shows what it waits for, the time since the start and
 * the details `detail` finds (checkpoint in progress, acknowledgements received of expected).
 * Not on a terminal (a pipe, a log, CI) it stays quiet: stdout keeps only the result.
 */
export class Progress {
  #waitingFor: string;
  #detail: ProgressDetail | undefined;
  #detailText: string | undefined;
  #redraw: TimerHandle | undefined;
  #poll: TimerHandle | undefined;
  #frame = 0;
  #stopped = false;
  readonly #startedAt: number;

  private constructor(
    private readonly context: CliContext,
    waitingFor: string,
    detail: ProgressDetail | undefined,
  ) {
    this.#waitingFor = waitingFor;
    this.#detail = detail;
    this.#startedAt = context.clock.now();
  }

  /** Prints `line` (if any) and, on a terminal, starts the status line, which names `waitingFor` ("the savepoint of job …"). */
  static start(context: CliContext, line: string | undefined, waitingFor: string, detail?: ProgressDetail): Progress {
    if (line !== undefined) context.err(line);
    const progress = new Progress(context, waitingFor, detail);
    if (context.interactive) {
      progress.#draw();
      progress.#pollDetail();
    }
    return progress;
  }

  /** From now on the status line names this instead, with these details: an operation's second phase. */
  waitingFor(what: string, detail?: ProgressDetail): void {
    this.#waitingFor = what;
    this.#detail = detail;
    this.#detailText = undefined;
  }

  /** Removes the status line; nothing more is drawn. */
  stop(): void {
    this.#stopped = true;
    const { clock } = this.context;
    if (this.#redraw !== undefined) clock.clearTimeout(this.#redraw);
    if (this.#poll !== undefined) clock.clearTimeout(this.#poll);
    if (this.context.interactive) this.context.status(undefined);
  }

  #draw(): void {
    if (this.#stopped) return;
    const seconds = ((this.context.clock.now() - this.#startedAt) / 1_000).toFixed(1);
    const spinner = SPINNER[this.#frame++ % SPINNER.length];
    const detail = this.#detailText === undefined ? '' : ` · ${this.#detailText}`;
    this.context.status(`${spinner} Waiting for ${this.#waitingFor} · ${seconds} s${detail}`);
    this.#redraw = this.context.clock.setTimeout(() => this.#draw(), REDRAW_INTERVAL_MS);
  }

  #pollDetail(): void {
    if (this.#stopped) return;
    const detail = this.#detail;
    const next = (): void => {
      if (!this.#stopped) this.#poll = this.context.clock.setTimeout(() => this.#pollDetail(), DETAIL_INTERVAL_MS);
    };
    if (detail === undefined) {
      next();
      return;
    }
    detail().then(
      (text) => {
        if (this.#detail === detail) this.#detailText = text;
        next();
      },
      // A detail is a nicety: a failed lookup leaves the line as it was.
      next,
    );
  }
}
