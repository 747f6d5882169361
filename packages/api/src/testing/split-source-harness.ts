import type { SourceSplit, SplitEnumerator, SplitEnumeratorContext, SplitSource, SplitSourceReader } from '../connector/splits.ts';
import { InputStatus } from '../connector/types.ts';
import { readerOutputInto } from './reader-output.ts';

/** What a checkpoint of a split source holds: the enumerator's state and every reader's splits. */
export interface SplitSourceSnapshot<S, C> {
  readonly enumerator: C;
  readonly readers: readonly (readonly S[])[];
}

/**
 * Runs a split source in memory for unit tests, wired as the runtime and the JobManager wire
 * it: an enumerator, `parallelism` readers that register after their restored splits were
 * added, events delivered synchronously. `restore` deals the snapshot's reader splits over the
 * new readers as the JobManager deals split lists (concatenated, even contiguous shares).
 */
export class SplitSourceHarness<T, S extends SourceSplit, C> {
  readonly readers: SplitSourceReader<T, S>[] = [];
  readonly enumerator: SplitEnumerator<S, C>;
  readonly #registered = new Set<number>();
  /** Periodic callAsync work, run by `runAsyncWork`. */
  readonly #async: { callable: () => Promise<unknown>; handler: (result: unknown, error: unknown) => void }[] = [];

  private constructor(
    readonly source: SplitSource<T, S, C>,
    readonly parallelism: number,
    restored: SplitSourceSnapshot<S, C> | undefined,
  ) {
    const harness = this;
    const context: SplitEnumeratorContext<S> = {
      currentParallelism: parallelism,
      registeredReaders: () => harness.#registered,
      assignSplits(assignment) {
        for (const [subtask, splits] of assignment) harness.readers[subtask]!.addSplits(splits);
      },
      signalNoMoreSplits: (subtask) => harness.readers[subtask]!.notifyNoMoreSplits(),
      callAsync: (callable, handler) => {
        harness.#async.push({ callable, handler: handler as (result: unknown, error: unknown) => void });
      },
    };
    this.enumerator = restored === undefined ? source.createEnumerator(context) : source.restoreEnumerator(context, restored.enumerator);
    this.enumerator.start();
    const all = restored?.readers.flat() ?? [];
    for (let i = 0; i < parallelism; i++) {
      const reader = source.createReader({
        jobId: 'test-job',
        subtaskIndex: i,
        parallelism,
        attemptNumber: 0,
        sendSplitRequest: () => this.enumerator.handleSplitRequest(i),
      });
      this.readers.push(reader);
      const share = all.slice(Math.floor((i * all.length) / parallelism), Math.floor(((i + 1) * all.length) / parallelism));
      if (share.length > 0) reader.addSplits(share);
    }
  }

  static async start<T, S extends SourceSplit, C>(source: SplitSource<T, S, C>, parallelism: number, restored?: SplitSourceSnapshot<S, C>): Promise<SplitSourceHarness<T, S, C>> {
    const harness = new SplitSourceHarness(source, parallelism, restored);
    // As the enumerator's first discovery would have run by the time readers ask.
    await harness.runAsyncWork();
    for (let i = 0; i < parallelism; i++) {
      await harness.readers[i]!.start?.();
      harness.#registered.add(i);
      harness.enumerator.addReader(i);
    }
    return harness;
  }

  /** Runs every pending callAsync once (discovery), handing results to their handlers. */
  async runAsyncWork(): Promise<void> {
    for (const { callable, handler } of this.#async) {
      try {
        handler(await callable(), undefined);
      } catch (err) {
        handler(undefined, err);
      }
    }
  }

  /**
   * Polls reader `i` until it ends, or until `limit` records, or until it has nothing for
   * `idleMs` (an unbounded reader); returns what it emitted.
   */
  async poll(i: number, limit = Number.POSITIVE_INFINITY, idleMs = 200): Promise<T[]> {
    const reader = this.readers[i]!;
    const out: T[] = [];
    const output = readerOutputInto(out);
    while (out.length < limit) {
      const status = reader.pollNext(output);
      if (status === InputStatus.END_OF_INPUT) break;
      if (status === InputStatus.NOTHING_AVAILABLE) {
        const idle = Symbol('idle');
        const woke = await Promise.race([reader.isAvailable().then(() => true), new Promise((r) => setTimeout(() => r(idle), idleMs))]);
        if (woke === idle) break;
      }
    }
    return out;
  }

  /** Every reader polled to its end (or `limit` records each). */
  async pollAll(limit?: number): Promise<T[][]> {
    const outputs: T[][] = [];
    for (let i = 0; i < this.parallelism; i++) outputs.push(await this.poll(i, limit));
    return outputs;
  }

  snapshot(checkpointId = 1): SplitSourceSnapshot<S, C> {
    return {
      enumerator: this.enumerator.snapshotState(checkpointId),
      readers: this.readers.map((r) => r.snapshotState(checkpointId)),
    };
  }

  async close(): Promise<void> {
    for (const reader of this.readers) await reader.close?.();
    await this.enumerator.close?.();
  }
}
