import {
  AvailabilitySignal,
  InputStatus,
  type ReaderOutput,
  type SourceReaderContext,
  type SourceSplit,
  type SplitSourceReader,
} from '@weir/api';
import { readBlocks } from './file-blocks.ts';
import type { LineBlock, TextLineInputFormat } from './text-line-input-format.ts';

/** A file to read from byte `offset` (the start of a line) to its end. */
export interface FileSplit extends SourceSplit {
  readonly file: string;
  readonly offset: number;
}

/** Blocks read ahead of the one being polled: the prefetch depth. */
const MAX_QUEUED_BLOCKS = 2;

/** The split being read: an async pump stays up to MAX_QUEUED_BLOCKS chunks ahead of `pollNext`. */
class ActiveSplit {
  readonly blocks: LineBlock[] = [];
  current: LineBlock | undefined;
  /** The end of the last block polled to its end, or the split's start. */
  consumed: number;
  done = false;
  failure: unknown;
  closed = false;
  #onSpace: (() => void) | undefined;
  pump: Promise<void> | undefined;

  constructor(
    readonly split: FileSplit,
    format: TextLineInputFormat,
    onData: () => void,
  ) {
    this.consumed = split.offset;
    this.pump = this.#run(format, onData).then(
      () => {
        this.done = true;
        onData();
      },
      (err: unknown) => {
        this.failure = err;
        onData();
      },
    );
  }

  /** Where the next line of this split starts. */
  get position(): number {
    return this.current !== undefined ? this.current.nextLineOffset() : this.consumed;
  }

  wakePump(): void {
    const wake = this.#onSpace;
    this.#onSpace = undefined;
    wake?.();
  }

  async #run(format: TextLineInputFormat, onData: () => void): Promise<void> {
    for await (const block of readBlocks(this.split.file, this.split.offset, format)) {
      while (this.blocks.length >= MAX_QUEUED_BLOCKS && !this.closed) await new Promise<void>((resolve) => (this.#onSpace = resolve));
      if (this.closed) return;
      this.blocks.push(block);
      onData();
    }
  }
}

/**
 * Reads the file splits the enumerator hands it, one at a time, asking for the next when it
 * has none; `pollNext` only takes lines from blocks already read, so it never waits on disk.
 */
export class FileSourceReader implements SplitSourceReader<string, FileSplit> {
  readonly #waiting: FileSplit[] = [];
  readonly #available = new AvailabilitySignal();
  #active: ActiveSplit | undefined;
  #noMoreSplits = false;
  #requested = false;

  constructor(
    private readonly format: TextLineInputFormat,
    private readonly context: SourceReaderContext,
    private readonly check: (split: unknown) => FileSplit,
  ) {}

  addSplits(splits: readonly FileSplit[]): void {
    for (const split of splits) this.#waiting.push(this.check(split));
    this.#requested = false;
    this.#available.signal();
  }

  notifyNoMoreSplits(): void {
    this.#noMoreSplits = true;
    this.#available.signal();
  }

  pollNext(output: ReaderOutput<string>): InputStatus {
    for (;;) {
      const active = this.#active;
      if (active !== undefined) {
        const line = active.current?.nextLine();
        if (line !== undefined) {
          output.createOutputForSplit(active.split.splitId).collect(line);
          return InputStatus.MORE_AVAILABLE;
        }
        if (active.current !== undefined) active.consumed = active.current.endOffset;
        active.current = active.blocks.shift();
        if (active.current !== undefined) {
          active.wakePump();
          continue;
        }
        if (active.failure !== undefined) throw active.failure;
        if (!active.done) return InputStatus.NOTHING_AVAILABLE;
        this.#active = undefined;
        output.releaseOutputForSplit(active.split.splitId);
      }
      const next = this.#waiting.shift();
      if (next !== undefined) {
        this.#active = new ActiveSplit(next, this.format, () => this.#available.signal());
        continue;
      }
      if (this.#noMoreSplits) return InputStatus.END_OF_INPUT;
      if (!this.#requested) {
        this.#requested = true;
        this.context.sendSplitRequest();
      }
      return InputStatus.NOTHING_AVAILABLE;
    }
  }

  isAvailable(): Promise<void> {
    const active = this.#active;
    const ready =
      active !== undefined ? active.current !== undefined || active.blocks.length > 0 || active.done || active.failure !== undefined : this.#waiting.length > 0 || this.#noMoreSplits;
    return ready ? Promise.resolve() : this.#available.wait();
  }

  /** The split being read at the start of its next line, then the splits not started. */
  snapshotState(): FileSplit[] {
    const active = this.#active;
    const current = active === undefined ? [] : [{ splitId: active.split.splitId, file: active.split.file, offset: active.position }];
    return [...current, ...this.#waiting.map((s) => ({ ...s }))];
  }

  async close(): Promise<void> {
    const active = this.#active;
    if (active === undefined) return;
    active.closed = true;
    active.wakePump();
    await active.pump;
  }
}
