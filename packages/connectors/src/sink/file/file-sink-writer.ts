import { isAbsolute, join, normalize, resolve } from 'node:path';
import { WeirError, type Logger } from '@weir/common';
import { ConnectorErrorCode } from '../../errors.ts';
import type { BucketAssigner } from './bucket-assigner.ts';
import type { SinkWriter } from '@weir/api';
import type { FileSinkCommittable } from './file-sink-committer.ts';
import type { Encoder } from './encoder.ts';
import { createSinkDirectory, InProgressPart, type PendingPart } from './part-file.ts';
import type { DefaultRollingPolicy } from './rolling-policy.ts';

/** What a FileSink writer keeps in a checkpoint: the part number it continues from. */
export interface FileSinkWriterState {
  readonly nextPart: number;
  /** The subtask and parallelism that wrote it: a restore at another parallelism must not delete hidden parts (see FileSink.createWriter). */
  readonly subtask?: number;
  readonly parallelism?: number;
}

/**
 * One subtask's writer (two-phase commit). Records go to the hidden in-progress part of their
 * bucket (the BucketAssigner's subdirectory; one part per bucket, numbered from one counter of
 * the subtask, so a part's name is unique below the sink's directory); a roll
 * (size limit, end of input, checkpoint) completes it into a pending part that stays hidden;
 * `prepareCommit` hands the pending parts to the checkpoint, and the FileSinkCommitter
 * renames them visible once that checkpoint completes. A `write` that does file I/O (a new
 * part, a full buffer, a roll) returns its promise: the task takes no record until it settles,
 * so the writer's operations never overlap.
 */
export class FileSinkWriter<T> implements SinkWriter<T> {
  /** Each bucket's in-progress part, by bucket id. */
  readonly #parts = new Map<string, InProgressPart>();
  #nextIndex: number;
  /** Rolled since the last prepareCommit, in roll order, with their bucket. */
  #pending: Array<{ bucket: string; part: PendingPart }> = [];
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
    private readonly bucketAssigner: BucketAssigner<T>,
  ) {
    this.#nextIndex = firstIndex;
  }

  write(record: T): void | Promise<void> {
    const bucket = this.bucketAssigner.getBucketId(record);
    const part = this.#parts.get(bucket);
    // Opened on the first record, so an idle subtask or bucket leaves no empty part file; a
    // bucket is checked once, when its part opens, not for every record.
    if (part === undefined) {
      checkBucket(bucket);
      return this.#track(this.#openThenWrite(bucket, this.encoder.encode(record)));
    }
    const text = this.encoder.encode(record);
    const written = part.write(text);
    if (written !== undefined) return this.#track(written.then(() => this.#rollIfFull(bucket, part)));
    if (this.rollingPolicy.shouldRollOnEvent(part.size)) return this.#track(this.#roll(bucket));
  }

  /** At end of input the current parts roll: they are committables of the next prepareCommit. */
  async flush(endOfInput: boolean): Promise<void> {
    for (const [bucket, part] of [...this.#parts]) {
      if (endOfInput) await this.#roll(bucket);
      else await part.flush();
    }
  }

  /** Rolls the current parts that have data, and hands over every part rolled since the last call. */
  async prepareCommit(checkpointId: number): Promise<FileSinkCommittable[]> {
    for (const [bucket, part] of [...this.#parts]) if (part.size > 0) await this.#roll(bucket);
    const committables = this.#pending.map(({ bucket, part }) => ({ dir: resolve(this.dir, bucket), pending: part.pendingName, final: part.finalName }));
    if (committables.length > 0) {
      this.logger.debug({ checkpointId, files: committables.map((c) => join(c.dir, c.final)) }, 'part files prepared for commit');
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
    const parts = [...this.#parts.values()];
    this.#parts.clear();
    for (const part of parts) await part.abandon();
  }

  async #openThenWrite(bucket: string, text: string): Promise<void> {
    const dir = join(this.dir, bucket);
    if (bucket !== '') await createSinkDirectory(dir);
    const part = await InProgressPart.open(dir, this.subtask, this.#nextIndex++);
    this.#parts.set(bucket, part);
    await part.write(text);
    await this.#rollIfFull(bucket, part);
  }

  async #rollIfFull(bucket: string, part: InProgressPart): Promise<void> {
    if (this.#parts.get(bucket) === part && this.rollingPolicy.shouldRollOnEvent(part.size)) await this.#roll(bucket);
  }

  async #roll(bucket: string): Promise<void> {
    const part = this.#parts.get(bucket);
    if (part === undefined) return;
    this.#parts.delete(bucket);
    this.#pending.push({ bucket, part: await part.roll() });
  }

  #track(io: Promise<void>): Promise<void> {
    this.#io = io;
    return io;
  }
}

/** Throws unless the assigner's bucket stays below the sink's directory. */
function checkBucket(bucket: string): void {
  if (bucket === '') return;
  if (typeof bucket !== 'string' || isAbsolute(bucket) || normalize(bucket).split(/[\\/]/).includes('..')) {
    throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `a FileSink bucket is a relative path below the sink's directory, got ${JSON.stringify(bucket)}`);
  }
}
