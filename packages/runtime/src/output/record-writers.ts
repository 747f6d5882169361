import type { KeySelector } from '@weir/api';
import { keyGroupForKey, subtaskForKeyGroup } from '@weir/common';
import type { RecordCodec } from '../codec/record-codec.ts';
import { END_OF_PARTITION, watermarkEvent, watermarkStatusEvent, type ChannelEvent } from '../network/channel-events.ts';
import type { ResultPartition } from '../network/result-partition.ts';
import type { BufferItem } from '../network/types.ts';
import type { FailureWrapper } from '../operators/operator-failure.ts';
import type { OutputTarget } from '../operators/output.ts';
import type { ChannelSelector } from './channel-selectors.ts';
import { OutputBatch, type BatchOptions, type BufferTarget } from './output-batch.ts';

/**
 * Writes an operator's records onto one outgoing edge: batches them and queues the buffers in
 * the edge's partition. Watermarks and idleness go to every subpartition, in order with the records.
 */
export interface RecordWriter extends OutputTarget {
  readonly partition: ResultPartition;
  /** Turns every partial batch into a buffer (buffer timeout, end of input). */
  flush(): void;
  /** Flushes, then queues `event` on every subpartition, behind the records before it (barriers, end of data). */
  broadcastEvent(event: ChannelEvent): void;
  /**
   * Flushes, then queues `event` (an unaligned barrier) on every subpartition ahead of the
   * buffers waiting for credit; returns the overtaken buffers per subpartition: the output
   * channel state.
   */
  broadcastPriorityEvent(event: ChannelEvent): BufferItem[][];
  /** Flushes, then queues the end of partition on every subpartition. */
  finish(): void;
}

abstract class PartitionRecordWriter implements RecordWriter {
  constructor(readonly partition: ResultPartition) {}

  abstract collect(record: unknown): void;
  abstract flush(): void;

  emitWatermark(timestamp: number): void {
    this.broadcastEvent(watermarkEvent(timestamp));
  }

  emitWatermarkStatus(idle: boolean): void {
    this.broadcastEvent(watermarkStatusEvent(idle));
  }

  broadcastEvent(event: ChannelEvent): void {
    this.flush();
    for (const s of this.partition.subpartitions) s.addEvent(event);
  }

  broadcastPriorityEvent(event: ChannelEvent): BufferItem[][] {
    this.flush();
    return this.partition.subpartitions.map((s) => s.addPriorityEvent(event));
  }

  finish(): void {
    this.broadcastEvent(END_OF_PARTITION);
  }
}

/** FORWARD and REBALANCE: each record goes to the one subpartition its selector picks. */
export class SelectingRecordWriter extends PartitionRecordWriter {
  readonly #batches: OutputBatch[];

  constructor(
    partition: ResultPartition,
    private readonly selector: ChannelSelector,
    private readonly codec: RecordCodec,
    private readonly failures: FailureWrapper,
    options: BatchOptions,
  ) {
    super(partition);
    this.#batches = partition.subpartitions.map((s) => new OutputBatch(s, codec, false, options));
  }

  collect(record: unknown): void {
    const special = check(this.codec, record, this.failures);
    this.#batches[this.selector.select(record)]!.add(record, special);
  }

  flush(): void {
    for (const batch of this.#batches) batch.flush();
  }
}

/**
 * HASH (keyBy): each record goes to the subtask owning its key's key group, computed with the
 * target's max parallelism, and the key group travels with it, so the consumer does not hash
 * the key again.
 */
export class KeyedRecordWriter extends PartitionRecordWriter {
  /** The batch of each key group's subtask, by key group: a lookup instead of subtaskForKeyGroup's division per record. */
  readonly #batchOfGroup: OutputBatch[];
  readonly #batches: OutputBatch[];

  constructor(
    partition: ResultPartition,
    private readonly key: KeySelector<unknown, unknown>,
    private readonly maxParallelism: number,
    private readonly codec: RecordCodec,
    /** The emitting operator's: the key selector is its user code, and a refused record is its record. */
    private readonly failures: FailureWrapper,
    options: BatchOptions,
  ) {
    super(partition);
    const batches = partition.subpartitions.map((s) => new OutputBatch(s, codec, true, options));
    this.#batches = batches;
    this.#batchOfGroup = Array.from({ length: maxParallelism }, (_, group) => batches[subtaskForKeyGroup(maxParallelism, batches.length, group)]!);
  }

  collect(record: unknown): void {
    let keyGroup: number;
    try {
      keyGroup = keyGroupForKey(this.key(record), this.maxParallelism);
    } catch (err) {
      throw this.failures.wrap(err);
    }
    const special = check(this.codec, record, this.failures);
    this.#batchOfGroup[keyGroup]!.addKeyed(record, special, keyGroup);
  }

  flush(): void {
    for (const batch of this.#batches) batch.flush();
  }
}

/** BROADCAST: one batch, encoded once (also under object reuse), and the same payload queued in every subpartition. */
export class BroadcastRecordWriter extends PartitionRecordWriter {
  readonly #batch: OutputBatch;

  constructor(
    partition: ResultPartition,
    private readonly codec: RecordCodec,
    private readonly failures: FailureWrapper,
    options: BatchOptions,
  ) {
    super(partition);
    const everyone: BufferTarget = {
      takesObjects: false,
      addBufferItem(buffer) {
        for (const s of partition.subpartitions) s.addBufferItem(buffer);
      },
    };
    this.#batch = new OutputBatch(everyone, codec, false, options);
  }

  collect(record: unknown): void {
    this.#batch.add(record, check(this.codec, record, this.failures));
  }

  flush(): void {
    this.#batch.flush();
  }
}

/** RecordCodec.check, a refusal being the emitting operator's failure. */
function check(codec: RecordCodec, record: unknown, failures: FailureWrapper): boolean {
  try {
    return codec.check(record);
  } catch (err) {
    throw failures.wrap(err);
  }
}
