import { mkdirSync } from 'node:fs';
import { createLogger, WeirError, type Logger } from '@weir/common';
import type { ConnectorContext, Sink, SinkWriter } from '@weir/api';
import { ConnectorErrorCode } from '../../errors.ts';
import type { Encoder } from './encoder.ts';
import { commitPart, InProgressPart, nextPartIndex, type PendingPart } from './part-file.ts';
import { DefaultRollingPolicy } from './rolling-policy.ts';

/**
 * Writes encoded records to part files in a directory (Flink's FileSink, row format): each
 * subtask writes `part-<subtask>-<n>`, hidden as `.part-<subtask>-<n>.inprogress` until it
 * rolls (at the policy's size, 128 MiB by default, and at end of input).
 */
export class FileSink<T> implements Sink<T> {
  private constructor(
    readonly dir: string,
    private readonly encoder: Encoder<T>,
    private readonly rollingPolicy: DefaultRollingPolicy,
  ) {}

  static forRowFormat<T>(dir: string, encoder: Encoder<T>): FileSinkBuilder<T> {
    if (typeof dir !== 'string' || dir.length === 0) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `FileSink needs an output directory, got ${String(dir)}`);
    }
    if (encoder === null || typeof encoder !== 'object' || typeof encoder.encode !== 'function') {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'FileSink.forRowFormat() needs an Encoder, such as new SimpleStringEncoder()');
    }
    return new FileSinkBuilder<T>((policy) => new FileSink(dir, encoder, policy));
  }

  createWriter(context: ConnectorContext): FileSinkWriter<T> {
    try {
      mkdirSync(this.dir, { recursive: true });
    } catch (err) {
      throw new WeirError(ConnectorErrorCode.IO_ERROR, `cannot create FileSink directory ${this.dir}: ${(err as Error).message}`, { cause: err });
    }
    const logger = createLogger('file-sink', { jobId: context.jobId, subtask: context.subtaskIndex });
    return new FileSinkWriter(this.dir, context.subtaskIndex, this.encoder, this.rollingPolicy, logger);
  }
}

export class FileSinkBuilder<T> {
  #rollingPolicy = DefaultRollingPolicy.builder().build();

  constructor(private readonly create: (policy: DefaultRollingPolicy) => FileSink<T>) {}

  withRollingPolicy(policy: DefaultRollingPolicy): this {
    if (!(policy instanceof DefaultRollingPolicy)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'withRollingPolicy() takes DefaultRollingPolicy.builder()...build()');
    }
    this.#rollingPolicy = policy;
    return this;
  }

  build(): FileSink<T> {
    return this.create(this.#rollingPolicy);
  }
}

/**
 * One subtask's writer. Finishing a part takes three steps, kept apart for exactly-once:
 * roll (complete the in-progress file), pending (it waits, hidden), commit (rename it
 * visible). Until checkpoints exist a rolled part is committed at once.
 */
export class FileSinkWriter<T> implements SinkWriter<T> {
  #part: InProgressPart | undefined;
  #nextIndex: number;

  constructor(
    private readonly dir: string,
    private readonly subtask: number,
    private readonly encoder: Encoder<T>,
    private readonly rollingPolicy: DefaultRollingPolicy,
    private readonly logger: Logger,
  ) {
    this.#nextIndex = nextPartIndex(dir, subtask);
  }

  write(record: T): void {
    // Opened on the first record, so an idle subtask leaves no empty part file.
    const part = (this.#part ??= InProgressPart.open(this.dir, this.subtask, this.#nextIndex++));
    part.write(this.encoder.encode(record));
    if (this.rollingPolicy.shouldRollOnEvent(part.size)) this.#commit(this.#roll());
  }

  flush(endOfInput: boolean): void {
    if (endOfInput) this.#commit(this.#roll());
    else this.#part?.flush();
  }

  /** Without end of input (a cancel, a failure) the in-progress part stays hidden and uncommitted. */
  close(): void {
    this.#part?.abandon();
    this.#part = undefined;
  }

  #roll(): PendingPart | undefined {
    const pending = this.#part?.roll();
    this.#part = undefined;
    return pending;
  }

  #commit(pending: PendingPart | undefined): void {
    if (pending === undefined) return;
    commitPart(pending);
    this.logger.info({ file: pending.finalPath, bytes: pending.size }, 'part file committed');
  }
}
