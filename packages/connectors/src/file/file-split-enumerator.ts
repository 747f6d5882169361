import type { SplitEnumerator, SplitEnumeratorContext } from '@weir/api';
import { listFiles } from './file-enumeration.ts';
import type { FileSplit } from './file-source-reader.ts';

/** What a FileSource's enumerator remembers: the files not handed out yet and every path it has seen. */
export interface FileEnumeratorState {
  readonly pending: readonly FileSplit[];
  readonly seen: readonly string[];
  /** The path was listed at least once (a bounded source lists it once). */
  readonly listed: boolean;
}

/**
 * Lists the source's path (once when bounded, every `monitorIntervalMs` when continuous),
 * turns files it has not seen into splits, and hands one to each reader that asks. A bounded
 * source tells a reader that asks once everything is handed out that no more splits come.
 */
export class FileSplitEnumerator implements SplitEnumerator<FileSplit, FileEnumeratorState> {
  readonly #pending: FileSplit[];
  readonly #seen: Set<string>;
  readonly #waiting = new Set<number>();
  #listed: boolean;

  constructor(
    private readonly context: SplitEnumeratorContext<FileSplit>,
    private readonly path: string,
    /** undefined: bounded. */
    private readonly monitorIntervalMs: number | undefined,
    restored?: FileEnumeratorState,
  ) {
    this.#pending = [...(restored?.pending ?? [])];
    this.#seen = new Set(restored?.seen ?? []);
    this.#listed = restored?.listed ?? false;
  }

  start(): void {
    const handle = (files: string[] | undefined, error: unknown): void => {
      if (error !== undefined) throw error;
      for (const file of files ?? []) {
        if (this.#seen.has(file)) continue;
        this.#seen.add(file);
        this.#pending.push({ splitId: file, file, offset: 0 });
      }
      this.#listed = true;
      this.#serve();
    };
    if (this.monitorIntervalMs !== undefined) this.context.callAsync(() => listFiles(this.path), handle, 0, this.monitorIntervalMs);
    else if (!this.#listed) this.context.callAsync(() => listFiles(this.path), handle);
  }

  handleSplitRequest(subtask: number): void {
    this.#waiting.add(subtask);
    this.#serve();
  }

  addReader(): void {}

  addSplitsBack(splits: readonly FileSplit[]): void {
    this.#pending.unshift(...splits);
    this.#serve();
  }

  snapshotState(): FileEnumeratorState {
    return { pending: this.#pending.map((s) => ({ ...s })), seen: [...this.#seen], listed: this.#listed };
  }

  #serve(): void {
    for (const subtask of [...this.#waiting]) {
      if (!this.context.registeredReaders().has(subtask)) continue;
      const split = this.#pending.shift();
      if (split !== undefined) {
        this.#waiting.delete(subtask);
        this.context.assignSplits(new Map([[subtask, [split]]]));
      } else if (this.monitorIntervalMs === undefined && this.#listed) {
        this.#waiting.delete(subtask);
        this.context.signalNoMoreSplits(subtask);
      }
    }
  }
}
