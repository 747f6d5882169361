import type { InputChannel, ChannelOwner } from './input-channel.ts';

/**
 * All input channels of a task. Channels with data wait in a FIFO; the task takes one item
 * from the first and puts the channel back at the end if it has more, so channels are served
 * round-robin. Blocking a channel (checkpoint alignment) means not putting it back. A channel
 * with an unaligned barrier is served first, so the barrier overtakes the queued buffers.
 */
export class InputGate implements ChannelOwner {
  readonly channels: InputChannel[] = [];
  readonly #available: InputChannel[] = [];
  /** Channels that received an unaligned barrier the task has not taken yet. */
  readonly #priority: InputChannel[] = [];
  #open = 0;
  #dataEnded = 0;
  #waiter: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(
    private readonly onChannelFailure: (channel: InputChannel, error: Error) => void,
    /** An unaligned barrier arrived: the task should take it soon, even while its output is full. */
    private readonly onPriorityEvent: () => void = () => {},
  ) {}

  add(channel: InputChannel): void {
    channel.index = this.channels.length;
    this.channels.push(channel);
    this.#open++;
  }

  /** Every channel delivered its end of partition. */
  get isFinished(): boolean {
    return this.#open === 0;
  }

  /** Every channel delivered end of data or end of partition: no more records will come. */
  get isDataEnded(): boolean {
    return this.#dataEnded === this.channels.length;
  }

  /** Channels that have not delivered their end of partition. */
  get openChannels(): number {
    return this.#open;
  }

  get unacknowledgedBuffers(): number {
    let n = 0;
    for (const c of this.channels) n += c.unacknowledgedBuffers;
    return n;
  }

  /** The next channel with data, taken out of the FIFO; the caller puts it back with `channelHasData` if it still has data. */
  pollChannel(): InputChannel | undefined {
    const channel = this.#available.shift();
    if (channel !== undefined) channel.queuedInGate = false;
    return channel;
  }

  /**
   * A channel holding an unaligned barrier, to serve before the round-robin FIFO until the
   * barrier is taken (the items before it too, which are only events and earlier buffers). A
   * blocked channel waits like any other: its alignment must complete first.
   */
  pollPriorityChannel(): InputChannel | undefined {
    const priority = this.#priority;
    for (let i = 0; i < priority.length; ) {
      const channel = priority[i]!;
      if (!channel.hasPriorityEvent || channel.finished) {
        priority.splice(i, 1);
        continue;
      }
      if (!channel.blocked) return channel;
      i++;
    }
    return undefined;
  }

  channelHasPriorityEvent(channel: InputChannel): void {
    if (!this.#priority.includes(channel)) this.#priority.push(channel);
    this.#signal();
    this.onPriorityEvent();
  }

  channelHasData(channel: InputChannel): void {
    if (channel.queuedInGate || channel.blocked || channel.finished || !channel.hasData) return;
    channel.queuedInGate = true;
    this.#available.push(channel);
    this.#signal();
  }

  /** Takes nothing more from `channel` until `unblock`; its queued buffers keep their credit, so its producer stops. */
  block(channel: InputChannel): void {
    if (channel.blocked) return;
    channel.blocked = true;
    if (!channel.queuedInGate) return;
    channel.queuedInGate = false;
    this.#available.splice(this.#available.indexOf(channel), 1);
  }

  unblockAll(): void {
    for (const channel of this.channels) {
      if (!channel.blocked) continue;
      channel.blocked = false;
      this.channelHasData(channel);
    }
  }

  channelDataEnded(channel: InputChannel): void {
    if (channel.dataEnded) return;
    channel.dataEnded = true;
    this.#dataEnded++;
    this.#signal();
  }

  channelFinished(channel: InputChannel): void {
    if (channel.finished) return;
    this.channelDataEnded(channel);
    channel.finished = true;
    channel.close();
    this.#open--;
    this.#signal();
  }

  channelFailed(channel: InputChannel, error: Error): void {
    this.onChannelFailure(channel, error);
  }

  whenAvailable(): Promise<void> {
    if (this.#available.length !== 0 || this.#open === 0 || this.pollPriorityChannel() !== undefined) return Promise.resolve();
    this.#waiter ??= new Promise((resolve) => (this.#wake = resolve));
    return this.#waiter;
  }

  close(): void {
    for (const c of this.channels) c.close();
  }

  #signal(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    this.#wake = undefined;
    this.#waiter = undefined;
    wake();
  }
}
