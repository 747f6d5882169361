import { WeirError, type Logger } from '@weir/common';
import type { ConsumerMessage__Output, ProducerMessage } from '@weir/rpc';
import { describeSubpartition, type ChannelItem, type PartitionProvider, type SubpartitionId, type Subscription } from '@weir/runtime';
import { TaskManagerErrorCode } from '../errors.ts';
import { fromSubscribeRequest, toProducerMessage } from './wire.ts';

/** The producer side of one DataExchange.Subscribe call, as a SubscribeSession uses it. */
export interface ProducerStream {
  /** Returns false when the transport's buffer is full; `onDrain` tells when it has room again. */
  write(message: ProducerMessage): boolean;
  onDrain(callback: () => void): void;
  /** Ends the call with status OK. */
  end(): void;
  /** Ends the call with the error, its WeirError code intact. */
  fail(error: Error): void;
}

/**
 * Serves one remote consumer's subscription out of this TaskManager's partitions. Record
 * buffers only flow against credit, so what gRPC buffers is bounded by the credit the
 * producer was granted; while the call's buffer is full, newly arriving credit is held back
 * instead of passed to the producer, so a slow socket also slows the producer.
 */
export class SubscribeSession {
  readonly #stream: ProducerStream;
  readonly #partitions: PartitionProvider;
  readonly #logger: Logger;
  #id: SubpartitionId | undefined;
  #subscription: Subscription | undefined;
  #writable = true;
  #heldCredit = 0;
  #done = false;

  constructor(stream: ProducerStream, partitions: PartitionProvider, logger: Logger) {
    this.#stream = stream;
    this.#partitions = partitions;
    this.#logger = logger;
  }

  onMessage(message: ConsumerMessage__Output): void {
    if (this.#done) return;
    if (message.kind === 'subscribe' && message.subscribe && this.#id === undefined) {
      this.#subscribe(fromSubscribeRequest(message.subscribe), message.subscribe.initialCredit);
    } else if (message.kind === 'credit' && message.credit && this.#id !== undefined) {
      this.#grant(message.credit.buffers);
    } else if (message.kind === 'unsubscribe' && this.#id !== undefined) {
      this.onConsumerGone();
    } else {
      const expected = this.#id === undefined ? 'a first message `subscribe`' : '`credit` or `unsubscribe` after `subscribe`';
      this.#violate(`expected ${expected}, got ${message.kind ?? 'a message of unknown kind'}`);
    }
  }

  /** The subpartition while it is being served: subscribed, not yet ended or failed. */
  get serving(): SubpartitionId | undefined {
    return this.#done ? undefined : this.#id;
  }

  /** The consumer cancelled or closed the call, or the connection broke. */
  onConsumerGone(): void {
    if (this.#done) return;
    this.#done = true;
    this.#subscription?.close();
    if (this.#id !== undefined) this.#logger.debug({ subpartition: describeSubpartition(this.#id) }, 'remote consumer left');
  }

  #subscribe(id: SubpartitionId, initialCredit: number): void {
    this.#id = id;
    this.#logger.debug({ subpartition: describeSubpartition(id), initialCredit }, 'remote consumer subscribed');
    const subscription = this.#partitions.subscribe(id, initialCredit, {
      onItem: (item) => this.#onItem(item),
      onError: (error) => this.#onError(error),
    });
    this.#subscription = subscription;
    // The provider may deliver (even end-of-partition) or fail before subscribe returns.
    if (this.#done) subscription.close();
  }

  #onItem(item: ChannelItem): void {
    if (this.#done) return;
    const hasRoom = this.#stream.write(toProducerMessage(item));
    if (item.kind === 'end-of-partition') {
      this.#done = true;
      this.#subscription?.close();
      this.#stream.end();
      return;
    }
    if (!hasRoom && this.#writable) {
      this.#writable = false;
      this.#stream.onDrain(() => this.#onDrain());
    }
  }

  #onDrain(): void {
    this.#writable = true;
    if (this.#done || this.#heldCredit === 0) return;
    const credit = this.#heldCredit;
    this.#heldCredit = 0;
    this.#subscription?.addCredit(credit);
  }

  #grant(buffers: number): void {
    if (this.#writable) this.#subscription?.addCredit(buffers);
    else this.#heldCredit += buffers;
  }

  #onError(error: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#stream.fail(error);
  }

  #violate(what: string): void {
    this.#done = true;
    this.#subscription?.close();
    this.#stream.fail(
      new WeirError(
        TaskManagerErrorCode.SUBSCRIBE_PROTOCOL_VIOLATION,
        `DataExchange.Subscribe: ${what}; a consumer sends one \`subscribe\`, then only \`credit\` and at last \`unsubscribe\``,
      ),
    );
  }
}
