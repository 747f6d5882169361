import { resolve } from 'node:path';
import type { Logger } from '@weir/common';
import type { SinkWriter } from '@weir/api';
import type { FileSinkCommittable } from './file-sink-committer.ts';
import type { Encoder } from './encoder.ts';
import { InProgressPart, type PendingPart } from './part-file.ts';
import type { DefaultRollingPolicy } from './rolling-policy.ts';

/** What a FileSink writer keeps in a checkpoint: the part number it continues from. */
export interface FileSinkWriterState {
  readonly nextPart: number;
  /** The subtask and parallelism that wrote it: a restore at another parallelism must not delete hidden parts (see FileSink.createWriter). */
  readonly subtask?: number;
  readonly parallelism?: number;
}

/**
 * One subtask's writer (two-phase commit). Records go to the hidden in-progress part; a roll
 * (size limit, end of input, checkpoint) completes it into a pending part that stays hidden;
 * `prepareCommit` hands the pending parts to the checkpoint, and the FileSinkCommitter
 * renames them visible once that checkpoint completes. A `write` that does file I/O (a new
 * part, a full buffer, a roll) returns its promise: the task takes no record until it settles,
 * so the writer's operations never overlap.
 */
export class FileSinkWriter<T> implements SinkWriter<T> {
  #part: InProgressPart | undefined;
  #nextIndex: number;
  /** Rolled since the last prepareCommit, in roll order. */
  #pending: PendingPart[] = [];
  /** The file I/O of the last write, which close waits for when the task is cancelled meanwhile. */
  #io: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly subtask: number,
    private readonly encoder: Encoder<T>,
    private readonly rollingPolicy: DefaultRollingPolicy,
    private readonly logger: Logger,
    firstIndex: number,
    private readonly parallelism: number,
  ) {
    this.#nextIndex = firstIndex;
  }

  write(record: T): void | Promise<void> {
    const text = this.encoder.encode(record);
    const part = this.#part;
    // Opened on the first record, so an idle subtask leaves no empty part file.
    if (part === undefined) return this.#track(this.#openThenWrite(text));
    const written = part.write(text);
    if (written !== undefined) return this.#track(written.then(() => this.#rollIfFull(part)));
    if (this.rollingPolicy.shouldRollOnEvent(part.size)) return this.#track(this.#roll());
  }

  /** At end of input the current part rolls: it is a committable of the next prepareCommit. */
  async flush(endOfInput: boolean): Promise<void> {
    if (endOfInput) await this.#roll();
    else await this.#part?.flush();
  }

  /** Rolls the current part if it has data, and hands over every part rolled since the last call. */
  async prepareCommit(checkpointId: number): Promise<FileSinkCommittable[]> {
    if (this.#part !== undefined && this.#part.size > 0) await this.#roll();
    const dir = resolve(this.dir);
    const committables = this.#pending.map(({ pendingName, finalName }) => ({ dir, pending: pendingName, final: finalName }));
    if (committables.length > 0) {
      this.logger.debug({ checkpointId, files: committables.map((c) => c.final) }, 'part files prepared for commit');
    }
    this.#pending = [];
    return committables;
  }

  snapshotState(): FileSinkWriterState {
    return { nextPart: this.#nextIndex, subtask: this.subtask, parallelism: this.parallelism };
  }

  /** Parts not handed over stay hidden: a restore deletes them, as no completed checkpoint promised them. */
  async close(): Promise<void> {
    await this.#io?.catch(() => undefined);
    const part = this.#part;
    this.#part = undefined;
    await part?.abandon();
  }

  async #openThenWrite(text: string): Promise<void> {
    const part = await InProgressPart.open(this.dir, this.subtask, this.#nextIndex++);
    this.#part = part;
    await part.write(text);
    await this.#rollIfFull(part);
  }

  async #rollIfFull(part: InProgressPart): Promise<void> {
    if (this.#part === part && this.rollingPolicy.shouldRollOnEvent(part.size)) await this.#roll();
  }

  async #roll(): Promise<void> {
    const part = this.#part;
    if (part === undefined) return;
    this.#part = undefined;
    this.#pending.push(await part.roll());
  }

  #track(io: Promise<void>): Promise<void> {
    this.#io = io;
    return io;
  }
}
