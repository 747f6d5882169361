import type { Collector } from '@weir/api';
import type { ResultPartition } from '../network/result-partition.ts';
import type { ChannelSelector } from './channel-selectors.ts';
import type { FlushTimer } from './flush-timer.ts';
import { OutputBatch, type BufferTarget } from './output-batch.ts';

/** Writes an operator's records onto one outgoing edge: batches them and queues the buffers in the edge's partition. */
export interface RecordWriter extends Collector<unknown> {
  readonly partition: ResultPartition;
  /** Turns every partial batch into a buffer (buffer timeout, end of input). */
  flush(): void;
  /** Flushes, then queues the end of partition on every subpartition. */
  finish(): void;
}

/** FORWARD, REBALANCE and HASH: each record goes to the one subpartition its selector picks. */
export class SelectingRecordWriter implements RecordWriter {
  readonly #batches: OutputBatch[];

  constructor(
    readonly partition: ResultPartition,
    private readonly selector: ChannelSelector,
    timer: FlushTimer,
    targetBytes: number,
  ) {
    this.#batches = partition.subpartitions.map((s) => new OutputBatch(s, timer, targetBytes));
  }

  collect(record: unknown): void {
    this.#batches[this.selector.select(record)]!.add(record);
  }

  flush(): void {
    for (const batch of this.#batches) batch.flush();
  }

  finish(): void {
    this.flush();
    for (const s of this.partition.subpartitions) s.addEndOfPartition();
  }
}

/** BROADCAST: one batch, encoded once, and the same payload queued in every subpartition. */
export class BroadcastRecordWriter implements RecordWriter {
  readonly #batch: OutputBatch;

  constructor(
    readonly partition: ResultPartition,
    timer: FlushTimer,
    targetBytes: number,
  ) {
    const everyone: BufferTarget = {
      addBuffer(payload, recordCount) {
        for (const s of partition.subpartitions) s.addBuffer(payload, recordCount);
      },
    };
    this.#batch = new OutputBatch(everyone, timer, targetBytes);
  }

  collect(record: unknown): void {
    this.#batch.add(record);
  }

  flush(): void {
    this.#batch.flush();
  }

  finish(): void {
    this.flush();
    for (const s of this.partition.subpartitions) s.addEndOfPartition();
  }
}
