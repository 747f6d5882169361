import type { ChannelItem, ChannelListener, Subscription } from '../network/types.ts';

/** What a channel reports to its gate. */
export interface ChannelOwner {
  channelHasData(channel: InputChannel): void;
  channelFailed(channel: InputChannel, error: Error): void;
}

/**
 * One subscribed subpartition: items queue here in channel order until the task takes them.
 * A buffer's credit goes back to the producer only once all of its records were processed,
 * so a channel never holds more buffers than the credit it granted.
 */
export class InputChannel implements ChannelListener {
  readonly #queue: ChannelItem[] = [];
  #subscription: Subscription | undefined;
  #unacknowledged = 0;
  #closed = false;
  /** Maintained by the gate: the channel sits in its queue of channels with data. */
  queuedInGate = false;
  /** Held back by checkpoint alignment: the gate takes nothing from it, so its buffers keep their credit. */
  blocked = false;
  /** End of data or end of partition came: no more records on this channel. */
  dataEnded = false;
  finished = false;

  constructor(
    readonly inputIndex: number,
    /** "<producer vertex name> subtask <i>", for error messages. */
    readonly description: string,
    private readonly owner: ChannelOwner,
  ) {}

  connect(subscription: Subscription): void {
    this.#subscription = subscription;
  }

  get hasData(): boolean {
    return this.#queue.length !== 0;
  }

  /** Items received but not taken yet, in channel order (what an unaligned checkpoint would persist). */
  get queued(): readonly ChannelItem[] {
    return this.#queue;
  }

  /** Buffers received whose credit has not gone back yet: queued here or being processed. */
  get unacknowledgedBuffers(): number {
    return this.#unacknowledged;
  }

  onItem(item: ChannelItem): void {
    if (this.#closed) return;
    this.#queue.push(item);
    if (item.kind === 'buffer') this.#unacknowledged++;
    this.owner.channelHasData(this);
  }

  onError(error: Error): void {
    if (this.#closed) return;
    this.owner.channelFailed(this, error);
  }

  poll(): ChannelItem | undefined {
    return this.#queue.shift();
  }

  acknowledgeBuffer(): void {
    this.#unacknowledged--;
    if (!this.#closed) this.#subscription?.addCredit(1);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue.length = 0;
    this.#unacknowledged = 0;
    this.#subscription?.close();
  }
}
