import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { OutputAvailability } from './output-availability.ts';
import { ResultSubpartition } from './result-subpartition.ts';
import type { ChannelListener, PartitionId, ProducedPartition, Subscription } from './types.ts';

/** One producer subtask's output on one edge: a subpartition per consumer subtask. */
export class ResultPartition implements ProducedPartition {
  readonly subpartitions: readonly ResultSubpartition[];
  #endsPending: number;
  #allEndsDelivered: (() => void) | undefined;
  readonly #ended: Promise<void>;

  constructor(
    readonly id: PartitionId,
    consumerParallelism: number,
    availability: OutputAvailability,
    queueLimit: number,
  ) {
    this.#endsPending = consumerParallelism;
    this.#ended = new Promise((resolve) => (this.#allEndsDelivered = resolve));
    const onEndDelivered = (): void => {
      if (--this.#endsPending === 0) this.#allEndsDelivered!();
    };
    const subpartitions: ResultSubpartition[] = [];
    for (let i = 0; i < consumerParallelism; i++) {
      const name = `${id.producerVertexId}[${id.producerSubtask}] -> ${id.consumerVertexId}[${i}] (job ${id.jobId} attempt ${id.attempt})`;
      subpartitions.push(new ResultSubpartition(name, availability, queueLimit, onEndDelivered));
    }
    this.subpartitions = subpartitions;
  }

  subscribe(consumerSubtask: number, initialCredit: number, listener: ChannelListener): Subscription {
    const subpartition = this.subpartitions[consumerSubtask];
    if (subpartition === undefined) {
      throw new WeirError(
        RuntimeErrorCode.INVALID_SUBSCRIPTION,
        `consumer subtask ${consumerSubtask} is out of range: ${this.id.producerVertexId}[${this.id.producerSubtask}] has ` +
          `${this.subpartitions.length} subpartitions for ${this.id.consumerVertexId} (subtasks 0..${this.subpartitions.length - 1})`,
      );
    }
    return subpartition.subscribe(initialCredit, listener);
  }

  /** Resolves once every subpartition handed its end of partition to a subscriber. */
  whenFullyConsumed(): Promise<void> {
    return this.#ended;
  }

  get queuedBuffers(): number {
    let n = 0;
    for (const s of this.subpartitions) n += s.queuedBuffers;
    return n;
  }

  release(cause: Error): void {
    for (const s of this.subpartitions) s.release(cause);
  }
}
