import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { ChannelEvent } from './channel-events.ts';
import type { OutputAvailability } from './output-availability.ts';
import { encodedNow } from './object-buffer.ts';
import { insertBeforeTrailingBuffers } from './priority-insert.ts';
import type { BufferItem, ChannelItem, ChannelListener, Subscription } from './types.ts';


/**
 * The queue of finished buffers for one consumer subtask. Buffers go to the subscriber only
 * against credit; events go as soon as everything before them went. While the queue holds
 * `queueLimit` buffers or more, this subpartition blocks its task's output.
 */
export class ResultSubpartition {
  readonly #queue: ChannelItem[] = [];
  #queuedBuffers = 0;
  #blocking = false;
  #credit = 0;
  #subscriber: SubpartitionSubscription | undefined;
  #dispatching = false;
  #endDelivered = false;
  #released = false;

  constructor(
    readonly name: string,
    private readonly availability: OutputAvailability,
    private readonly queueLimit: number,
    private readonly onEndDelivered: () => void,
  ) {}

  /** Buffers waiting for credit or for a subscriber. */
  get queuedBuffers(): number {
    return this.#queuedBuffers;
  }

  /** The subscriber runs in this process: it can take records as objects. */
  get takesObjects(): boolean {
    return this.#subscriber?.listener.local === true;
  }

  addBuffer(payload: Uint8Array, recordCount: number): void {
    this.addBufferItem({ kind: 'buffer', payload, recordCount });
  }

  addBufferItem(buffer: BufferItem): void {
    if (this.#released) return;
    this.#queue.push(buffer);
    this.#queuedBuffers++;
    if (!this.#blocking && this.#queuedBuffers >= this.queueLimit) {
      this.#blocking = true;
      this.availability.block();
    }
    this.#dispatch();
  }

  /** Queues an event (barrier, end of data, end of partition...) behind the buffers before it; events need no credit. */
  addEvent(event: ChannelEvent): void {
    if (this.#released) return;
    this.#queue.push(event);
    this.#dispatch();
  }

  /**
   * Queues an unaligned barrier ahead of the buffers waiting for credit, behind any event
   * before them (an earlier barrier or end of data keeps its place), and returns the buffers
   * it overtook, in order: they still go to the consumer after it, and they are this
   * subpartition's output channel state for the barrier's checkpoint (encoded now: a local
   * consumer may change the objects of an ObjectBuffer before the state is written).
   */
  addPriorityEvent(event: ChannelEvent): BufferItem[] {
    if (this.#released) return [];
    const overtaken = insertBeforeTrailingBuffers(this.#queue, event).map(encodedNow);
    this.#dispatch();
    return overtaken;
  }

  subscribe(initialCredit: number, listener: ChannelListener): Subscription {
    if (this.#released) {
      throw new WeirError(RuntimeErrorCode.PARTITION_RELEASED, `subpartition ${this.name} was released; subscribe to the current attempt`);
    }
    if (this.#subscriber !== undefined || this.#endDelivered) {
      throw new WeirError(
        RuntimeErrorCode.INVALID_SUBSCRIPTION,
        `subpartition ${this.name} already has a subscriber; each consumer subtask subscribes once per attempt`,
      );
    }
    const subscription = new SubpartitionSubscription(this, listener);
    this.#subscriber = subscription;
    this.#credit = initialCredit;
    this.#dispatch();
    return subscription;
  }

  release(cause: Error): void {
    if (this.#released) return;
    this.#released = true;
    this.#queue.length = 0;
    this.#queuedBuffers = 0;
    this.#unblock();
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber !== undefined && !this.#endDelivered) subscriber.listener.onError(cause);
  }

  addCredit(from: SubpartitionSubscription, buffers: number): void {
    if (from !== this.#subscriber) return;
    this.#credit += buffers;
    this.#dispatch();
  }

  detach(from: SubpartitionSubscription): void {
    if (from !== this.#subscriber) return;
    this.#subscriber = undefined;
    this.#credit = 0;
  }

  #dispatch(): void {
    // A listener may grant credit from inside onItem; the running loop picks that up.
    if (this.#dispatching) return;
    this.#dispatching = true;
    try {
      const queue = this.#queue;
      while (queue.length > 0 && this.#subscriber !== undefined) {
        const item = queue[0]!;
        if (item.kind === 'buffer') {
          if (this.#credit === 0) break;
          this.#credit--;
          this.#queuedBuffers--;
          if (this.#blocking && this.#queuedBuffers < this.queueLimit) this.#unblock();
        }
        queue.shift();
        const subscriber = this.#subscriber;
        if (item.kind === 'end-of-partition') {
          this.#endDelivered = true;
          this.#subscriber = undefined;
        }
        subscriber.listener.onItem(item);
        if (item.kind === 'end-of-partition') this.onEndDelivered();
      }
    } finally {
      this.#dispatching = false;
    }
  }

  #unblock(): void {
    if (!this.#blocking) return;
    this.#blocking = false;
    this.availability.unblock();
  }
}

class SubpartitionSubscription implements Subscription {
  constructor(
    private readonly subpartition: ResultSubpartition,
    readonly listener: ChannelListener,
  ) {}

  addCredit(buffers: number): void {
    this.subpartition.addCredit(this, buffers);
  }

  close(): void {
    this.subpartition.detach(this);
  }
}
