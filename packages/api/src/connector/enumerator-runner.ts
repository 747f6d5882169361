import type { SourceSplit, SplitEnumerator, SplitEnumeratorContext, SplitSource } from './splits.ts';

/** What an enumerator hands out, for the caller to deliver to reader `subtask`. */
export type EnumeratorOutput =
  | { readonly kind: 'add-splits'; readonly subtask: number; readonly splits: readonly SourceSplit[] }
  | { readonly kind: 'no-more-splits'; readonly subtask: number }
  /** The enumerator threw (in a handler or its callAsync work): the job must fail over. */
  | { readonly kind: 'failed'; readonly error: unknown };

/** What a SplitEnumeratorRunner needs: the parallelism, the restored state, where its output goes, and timers. */
export interface EnumeratorRunnerOptions {
  /** The source's parallelism. */
  readonly parallelism: number;
  /** The restored `snapshotState` result, or undefined for a fresh start. */
  readonly restored?: unknown;
  /** Called synchronously, in order, with everything the enumerator hands out. */
  readonly output: (output: EnumeratorOutput) => void;
  /** The timer for `callAsync` delays and periods (tests pass a manual clock's); Node's by default. */
  readonly setTimeout?: (fn: () => void, ms: number) => unknown;
  /** Cancels a timer `setTimeout` returned. */
  readonly clearTimeout?: (handle: unknown) => void;
}

/**
 * Runs one split source's SplitEnumerator (Flink's SourceCoordinator context): keeps the
 * registered readers, turns `assignSplits` and `signalNoMoreSplits` into outputs, runs
 * `callAsync` work on timers and hands results back to the enumerator, and catches what the
 * enumerator throws. Everything the enumerator does reaches the caller through `output`, in
 * order: wherever it runs (this process or a worker), the caller sees one ordered stream.
 */
export class SplitEnumeratorRunner {
  readonly #enumerator: SplitEnumerator<SourceSplit, unknown>;
  readonly #registered = new Set<number>();
  readonly #timers = new Set<unknown>();
  readonly #options: EnumeratorRunnerOptions;
  #closed = false;
  #failed = false;

  constructor(source: SplitSource<unknown, SourceSplit, unknown>, options: EnumeratorRunnerOptions) {
    this.#options = options;
    const runner = this;
    const context: SplitEnumeratorContext<SourceSplit> = {
      currentParallelism: options.parallelism,
      registeredReaders: () => runner.#registered,
      assignSplits(assignment) {
        for (const [subtask, splits] of assignment) {
          if (!runner.#registered.has(subtask)) {
            throw new Error(`the enumerator assigned splits to reader ${subtask}, which has not registered (registered: ${[...runner.#registered].join(', ') || 'none'})`);
          }
          if (splits.length > 0) runner.#emit({ kind: 'add-splits', subtask, splits: [...splits] });
        }
      },
      signalNoMoreSplits: (subtask) => runner.#emit({ kind: 'no-more-splits', subtask }),
      callAsync: (callable, handler, initialDelayMs, periodMs) => runner.#callAsync(callable, handler, initialDelayMs ?? 0, periodMs),
    };
    this.#enumerator = options.restored === undefined ? source.createEnumerator(context) : source.restoreEnumerator(context, options.restored);
  }

  /** Starts the enumerator. */
  start(): void {
    this.#guard(() => this.#enumerator.start());
  }

  /** Reader `subtask` is running: registers it and tells the enumerator. */
  addReader(subtask: number): void {
    this.#registered.add(subtask);
    this.#guard(() => this.#enumerator.addReader(subtask));
  }

  /** Passes reader `subtask`'s split request to the enumerator. */
  handleSplitRequest(subtask: number): void {
    this.#guard(() => this.#enumerator.handleSplitRequest(subtask));
  }

  /** Gives the enumerator back the splits of reader `subtask`, whose task failed before a checkpoint took them. */
  addSplitsBack(splits: readonly SourceSplit[], subtask: number): void {
    this.#registered.delete(subtask);
    this.#guard(() => this.#enumerator.addSplitsBack(splits, subtask));
  }

  /** The enumerator's state for checkpoint `checkpointId`; throws what the enumerator throws. */
  snapshot(checkpointId: number): unknown {
    return this.#enumerator.snapshotState(checkpointId);
  }

  /** Tells the enumerator checkpoint `checkpointId` completed. */
  notifyCheckpointComplete(checkpointId: number): void {
    this.#guard(() => this.#enumerator.notifyCheckpointComplete?.(checkpointId));
  }

  /** Cancels the enumerator's timers and closes it. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const handle of this.#timers) this.#clear(handle);
    this.#timers.clear();
    await this.#enumerator.close?.();
  }

  #callAsync<R>(callable: () => Promise<R>, handler: (result: R | undefined, error: unknown) => void, delayMs: number, periodMs: number | undefined): void {
    const run = (): void => {
      if (this.#closed) return;
      let work: Promise<R>;
      try {
        work = callable();
      } catch (err) {
        work = Promise.reject(err);
      }
      work.then(
        (result) => this.#handle(() => handler(result, undefined), periodMs, run),
        (error: unknown) => this.#handle(() => handler(undefined, error), periodMs, run),
      );
    };
    this.#schedule(run, delayMs);
  }

  #handle(deliver: () => void, periodMs: number | undefined, again: () => void): void {
    if (this.#closed) return;
    this.#guard(deliver);
    if (periodMs !== undefined && !this.#failed) this.#schedule(again, periodMs);
  }

  #schedule(fn: () => void, ms: number): void {
    const set = this.#options.setTimeout ?? ((f: () => void, d: number) => setTimeout(f, d));
    const handle = set(() => {
      this.#timers.delete(handle);
      fn();
    }, ms);
    this.#timers.add(handle);
  }

  #clear(handle: unknown): void {
    const clear = this.#options.clearTimeout ?? ((h: unknown) => clearTimeout(h as NodeJS.Timeout));
    clear(handle);
  }

  #guard(action: () => void): void {
    if (this.#closed || this.#failed) return;
    try {
      action();
    } catch (error) {
      this.#failed = true;
      this.#options.output({ kind: 'failed', error });
    }
  }

  #emit(output: EnumeratorOutput): void {
    if (!this.#closed) this.#options.output(output);
  }
}
