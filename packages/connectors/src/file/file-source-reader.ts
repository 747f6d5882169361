import { WeirError } from '@weir/common';
import { InputStatus, type ConnectorContext, type ReaderOutput, type SourceReader } from '@weir/api';
import { ConnectorErrorCode } from '../errors.ts';
import { readBlocks } from './file-blocks.ts';
import { filesOfSubtask, listFiles } from './file-enumeration.ts';
import type { LineBlock, TextLineInputFormat } from './text-line-input-format.ts';

/**
 * Where a file reader is: every file of the reader sorted before `file` is done, and `file`
 * continues at byte `offset` (the start of a line).
 */
export interface FileSourcePosition {
  readonly file: string;
  readonly offset: number;
}

/** Blocks read ahead of the one being polled: the prefetch depth. */
const MAX_QUEUED_BLOCKS = 2;

/**
 * Reads this subtask's files with an async pump that stays up to MAX_QUEUED_BLOCKS chunks
 * ahead; `pollNext` only takes lines from decoded blocks, so it never waits on the disk.
 */
export class FileSourceReader implements SourceReader<string> {
  readonly #queue: LineBlock[] = [];
  #current: LineBlock | undefined;
  /** The end of the last block polled to its end, or the restored position; null before anything was read. */
  #consumed: FileSourcePosition | null;
  #listing: Promise<string[]> | undefined;
  #pump: Promise<void> | undefined;
  #pumpDone = false;
  #failure: unknown;
  #closed = false;
  #onData: (() => void) | undefined;
  #onSpace: (() => void) | undefined;

  constructor(
    private readonly path: string,
    private readonly format: TextLineInputFormat,
    private readonly context: ConnectorContext,
    restoreFrom: FileSourcePosition | null,
  ) {
    this.#consumed = restoreFrom;
  }

  /** Lists the files, so a missing path fails the task at start; reading goes on in the background. */
  async start(): Promise<void> {
    this.#startPump();
    await this.#listing;
  }

  pollNext(output: ReaderOutput<string>): InputStatus {
    for (;;) {
      const block = this.#current;
      if (block !== undefined) {
        const line = block.nextLine();
        if (line !== undefined) {
          output.collect(line);
          return InputStatus.MORE_AVAILABLE;
        }
        this.#consumed = { file: block.file, offset: block.endOffset };
        this.#current = undefined;
      }
      const next = this.#queue.shift();
      if (next === undefined) {
        if (this.#failure !== undefined) throw this.#failure;
        if (this.#pumpDone) return InputStatus.END_OF_INPUT;
        this.#startPump();
        return InputStatus.NOTHING_AVAILABLE;
      }
      this.#current = next;
      this.#wake('space');
    }
  }

  isAvailable(): Promise<void> {
    if (this.#current !== undefined || this.#queue.length > 0 || this.#pumpDone || this.#failure !== undefined) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const previous = this.#onData;
      this.#onData = () => {
        previous?.();
        resolve();
      };
    });
  }

  /** Null until the first block is polled to its end on a fresh reader: start from the beginning. */
  snapshotState(): FileSourcePosition | null {
    const block = this.#current;
    return block !== undefined ? { file: block.file, offset: block.nextLineOffset() } : this.#consumed;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wake('space');
    await this.#pump;
  }

  #startPump(): void {
    if (this.#pump !== undefined) return;
    this.#listing = listFiles(this.path);
    this.#pump = this.#run(this.#listing).then(
      () => {
        this.#pumpDone = true;
        this.#wake('data');
      },
      (err: unknown) => {
        this.#failure = err;
        this.#wake('data');
      },
    );
    // start() reports a listing failure; the pump's handler above keeps it for pollNext too.
    this.#listing.catch(() => {});
  }

  async #run(listing: Promise<string[]>): Promise<void> {
    const files = filesOfSubtask(await listing, this.context.subtaskIndex, this.context.parallelism);
    const from = this.#consumed;
    if (from !== null && !files.includes(from.file)) {
      throw new WeirError(
        ConnectorErrorCode.INVALID_POSITION,
        `file source reader ${this.context.subtaskIndex} of ${this.context.parallelism} cannot resume in ${from.file}: it is not one of its files; ` +
          'the input changed since the checkpoint (files added, removed or renamed), which a restore cannot follow',
      );
    }
    for (const file of files) {
      if (from !== null && file < from.file) continue;
      const offset = from !== null && file === from.file ? from.offset : 0;
      for await (const block of readBlocks(file, offset, this.format)) {
        while (this.#queue.length >= MAX_QUEUED_BLOCKS && !this.#closed) {
          await new Promise<void>((resolve) => (this.#onSpace = resolve));
        }
        if (this.#closed) return;
        this.#queue.push(block);
        this.#wake('data');
      }
      if (this.#closed) return;
    }
  }

  #wake(which: 'data' | 'space'): void {
    const wake = which === 'data' ? this.#onData : this.#onSpace;
    if (which === 'data') this.#onData = undefined;
    else this.#onSpace = undefined;
    wake?.();
  }
}
