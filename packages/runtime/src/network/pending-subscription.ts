import type { TimerHandle } from '@weir/common';
import type { ChannelListener, ProducedPartition, SubpartitionId, Subscription } from './types.ts';

/**
 * The Subscription the registry returns at once. It collects credit while the producer has
 * not registered yet, then forwards everything to the partition's own subscription.
 */
export class PendingSubscription implements Subscription {
  #credit: number;
  #target: Subscription | undefined;
  #done = false;
  timer: TimerHandle | undefined;

  constructor(
    readonly id: SubpartitionId,
    initialCredit: number,
    private readonly listener: ChannelListener,
    private readonly onClose: (pending: PendingSubscription) => void,
  ) {
    this.#credit = initialCredit;
  }

  get waiting(): boolean {
    return !this.#done && this.#target === undefined;
  }

  attach(partition: ProducedPartition): void {
    if (!this.waiting) return;
    try {
      this.#target = partition.subscribe(this.id.consumerSubtask, this.#credit, this.listener);
    } catch (err) {
      this.fail(err as Error);
    }
  }

  fail(error: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#target = undefined;
    this.listener.onError(error);
  }

  addCredit(buffers: number): void {
    if (this.#target !== undefined) this.#target.addCredit(buffers);
    else this.#credit += buffers;
  }

  close(): void {
    if (this.#done) return;
    this.#done = true;
    const target = this.#target;
    this.#target = undefined;
    if (target !== undefined) target.close();
    this.onClose(this);
  }
}
