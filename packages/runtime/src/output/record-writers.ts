import { END_OF_PARTITION, watermarkEvent, watermarkStatusEvent, type ChannelEvent } from '../network/channel-events.ts';
import type { ResultPartition } from '../network/result-partition.ts';
import type { BufferItem } from '../network/types.ts';
import type { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import type { ChannelSelector } from './channel-selectors.ts';
import type { OutputTarget } from '../operators/output.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';
import type { FlushTimer } from './flush-timer.ts';
import { OutputBatch, type BufferTarget } from './output-batch.ts';

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

/** FORWARD, REBALANCE and HASH: each record goes to the one subpartition its selector picks. */
export class SelectingRecordWriter extends PartitionRecordWriter {
  readonly #batches: OutputBatch[];

  constructor(
    partition: ResultPartition,
    private readonly selector: ChannelSelector,
    timer: FlushTimer,
    targetBytes: number,
    timestamp: RecordTimestamp,
    metrics: TaskIOMetrics,
  ) {
    super(partition);
    this.#batches = partition.subpartitions.map((s) => new OutputBatch(s, timer, targetBytes, timestamp, metrics));
  }

  collect(record: unknown): void {
    this.#batches[this.selector.select(record)]!.add(record);
  }

  flush(): void {
    for (const batch of this.#batches) batch.flush();
  }
}

/** BROADCAST: one batch, encoded once, and the same payload queued in every subpartition. */
export class BroadcastRecordWriter extends PartitionRecordWriter {
  readonly #batch: OutputBatch;

  constructor(partition: ResultPartition, timer: FlushTimer, targetBytes: number, timestamp: RecordTimestamp, metrics: TaskIOMetrics) {
    super(partition);
    const everyone: BufferTarget = {
      addBuffer(payload, recordCount) {
        for (const s of partition.subpartitions) s.addBuffer(payload, recordCount);
      },
    };
    this.#batch = new OutputBatch(everyone, timer, targetBytes, timestamp, metrics);
  }

  collect(record: unknown): void {
    this.#batch.add(record);
  }

  flush(): void {
    this.#batch.flush();
  }
}
