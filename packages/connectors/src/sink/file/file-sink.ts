import { createLogger, WeirError } from '@weir/common';
import type { ConnectorContext, Sink } from '@weir/api';
import { ConnectorErrorCode } from '../../errors.ts';
import { BasePathBucketAssigner, type BucketAssigner } from './bucket-assigner.ts';
import type { Encoder } from './encoder.ts';
import { FileSinkCommitter } from './file-sink-committer.ts';
import { FileSinkWriter, type FileSinkWriterState } from './file-sink-writer.ts';
import { createSinkDirectory, deleteHiddenParts, nextPartIndex } from './part-file.ts';
import { DefaultRollingPolicy } from './rolling-policy.ts';

/**
 * Writes encoded records to part files in a directory (Flink's FileSink, row format), exactly
 * once: each subtask writes `part-<subtask>-<n>`, hidden as `.part-<subtask>-<n>.inprogress`
 * until a checkpoint that covers it completes and the committer renames it visible (without
 * checkpointing, at end of input). Parts roll at the policy's size (128 MiB by default), on
 * every checkpoint and at end of input. With a BucketAssigner each record's part is in its
 * bucket's subdirectory (Hive-style partitions for the SQL filesystem sink). The directory must
 * be shared by all TaskManagers.
 */
export class FileSink<T> implements Sink<T> {
  private constructor(
    readonly dir: string,
    private readonly encoder: Encoder<T>,
    private readonly rollingPolicy: DefaultRollingPolicy,
    private readonly bucketAssigner: BucketAssigner<T>,
  ) {}

  /** A builder for part files in `dir`, one line per record through `encoder` (Flink takes a Path; bulk formats are not supported). */
  static forRowFormat<T>(dir: string, encoder: Encoder<T>): FileSinkBuilder<T> {
    if (typeof dir !== 'string' || dir.length === 0) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `FileSink needs an output directory, got ${String(dir)}`);
    }
    if (encoder === null || typeof encoder !== 'object' || typeof encoder.encode !== 'function') {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'FileSink.forRowFormat() needs an Encoder, such as new SimpleStringEncoder()');
    }
    return new FileSinkBuilder<T>((policy, assigner) => new FileSink(dir, encoder, policy, assigner));
  }

  /**
   * Fresh (no restoredState): numbering continues after every part already in the directory.
   * Restored at the same parallelism: the runtime has already committed what the restored
   * checkpoint promised to this subtask, so its hidden parts are leftovers of the failed attempt
   * and are deleted. Restored at another parallelism, pending parts of this subtask's number may
   * have been handed to another subtask that has not committed them yet, so hidden parts stay
   * (as Flink's FileSink leaves them). Numbering continues after the restored state's and every
   * part present.
   */
  async createWriter(context: ConnectorContext, restoredState?: readonly unknown[]): Promise<FileSinkWriter<T>> {
    const states = restoredState?.map(requireWriterState);
    await createSinkDirectory(this.dir);
    const logger = createLogger('file-sink', { jobId: context.jobId, subtask: context.subtaskIndex });
    const buckets = !(this.bucketAssigner instanceof BasePathBucketAssigner);
    let firstIndex = await nextPartIndex(this.dir, context.subtaskIndex, buckets);
    if (states !== undefined) {
      for (const state of states) firstIndex = Math.max(firstIndex, state.nextPart);
      if (restoredInPlace(states, context)) {
        const deleted = await deleteHiddenParts(this.dir, context.subtaskIndex, buckets);
        if (deleted.length > 0) logger.info({ dir: this.dir, files: deleted }, 'deleted uncommitted part files of the failed attempt');
      } else {
        logger.info({ dir: this.dir }, 'restored at another parallelism: hidden part files of earlier attempts are left in place');
      }
    }
    return new FileSinkWriter(this.dir, context.subtaskIndex, this.encoder, this.rollingPolicy, logger, firstIndex, context.parallelism, this.bucketAssigner);
  }

  createCommitter(context: ConnectorContext): FileSinkCommitter {
    return new FileSinkCommitter(this.dir, createLogger('file-sink-committer', { jobId: context.jobId, subtask: context.subtaskIndex }));
  }
}

/** The restored writer state is this subtask's own at an unchanged parallelism (states of older versions carry no origin and count as in place). */
function restoredInPlace(states: readonly FileSinkWriterState[], context: ConnectorContext): boolean {
  if (states.length === 0) return false;
  return states.every(
    (s) => (s.subtask === undefined || s.subtask === context.subtaskIndex) && (s.parallelism === undefined || s.parallelism === context.parallelism),
  );
}

function requireWriterState(state: unknown): FileSinkWriterState {
  const nextPart = (state as Partial<FileSinkWriterState> | null)?.nextPart;
  if (typeof nextPart !== 'number' || !Number.isSafeInteger(nextPart) || nextPart < 0) {
    throw new WeirError(
      ConnectorErrorCode.INVALID_RESTORED_STATE,
      `a FileSink writer resumes from { nextPart: <whole number >= 0> }, got ${JSON.stringify(state)}`,
    );
  }
  const { subtask, parallelism } = state as Partial<FileSinkWriterState>;
  return { nextPart, ...(typeof subtask === 'number' && { subtask }), ...(typeof parallelism === 'number' && { parallelism }) };
}

/** Builds a FileSink (Flink's FileSink.RowFormatBuilder). */
export class FileSinkBuilder<T> {
  #rollingPolicy = DefaultRollingPolicy.builder().build();
  #bucketAssigner: BucketAssigner<T> = new BasePathBucketAssigner<T>();

  constructor(private readonly create: (policy: DefaultRollingPolicy, assigner: BucketAssigner<T>) => FileSink<T>) {}

  /** Flink's withBucketAssigner: the subdirectory each record's part file is in. */
  withBucketAssigner(assigner: BucketAssigner<T>): this {
    if (assigner === null || typeof assigner !== 'object' || typeof assigner.getBucketId !== 'function') {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'withBucketAssigner() takes an object with getBucketId(element)');
    }
    this.#bucketAssigner = assigner;
    return this;
  }

  /** Flink's withRollingPolicy: when an in-progress part file rolls. */
  withRollingPolicy(policy: DefaultRollingPolicy): this {
    if (!(policy instanceof DefaultRollingPolicy)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'withRollingPolicy() takes DefaultRollingPolicy.builder()...build()');
    }
    this.#rollingPolicy = policy;
    return this;
  }

  /** The FileSink. */
  build(): FileSink<T> {
    return this.create(this.#rollingPolicy, this.#bucketAssigner);
  }
}
