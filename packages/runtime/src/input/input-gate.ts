import type { InputChannel, ChannelOwner } from './input-channel.ts';

/**
 * All input channels of a task. Channels with data wait in a FIFO; the task takes one item
 * from the first and puts the channel back at the end if it has more, so channels are served
 * round-robin. Blocking a channel (checkpoint alignment) means not putting it back.
 */
export class InputGate implements ChannelOwner {
  readonly channels: InputChannel[] = [];
  readonly #available: InputChannel[] = [];
  #open = 0;
  #waiter: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(private readonly onChannelFailure: (channel: InputChannel, error: Error) => void) {}

  add(channel: InputChannel): void {
    this.channels.push(channel);
    this.#open++;
  }

  get isFinished(): boolean {
    return this.#open === 0;
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

  channelHasData(channel: InputChannel): void {
    if (channel.queuedInGate || channel.finished || !channel.hasData) return;
    channel.queuedInGate = true;
    this.#available.push(channel);
    this.#signal();
  }

  channelFinished(channel: InputChannel): void {
    if (channel.finished) return;
    channel.finished = true;
    channel.close();
    this.#open--;
    this.#signal();
  }

  channelFailed(channel: InputChannel, error: Error): void {
    this.onChannelFailure(channel, error);
  }

  whenAvailable(): Promise<void> {
    if (this.#available.length !== 0 || this.#open === 0) return Promise.resolve();
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
