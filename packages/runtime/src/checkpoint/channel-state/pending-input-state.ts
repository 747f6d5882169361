import type { ChannelSource } from '../../input/input-channel.ts';
import type { BufferItem } from '../../network/types.ts';

/** The buffers of one channel that go into a checkpoint's channel state, in channel order. */
export interface ChannelBuffers {
  readonly direction: 'input' | 'output';
  /** input: the producer; output: the consumer. */
  readonly vertexId: string;
  readonly subtask: number;
  /** The edge's position among the consuming vertex's inputs (ChannelStateEntry.input). */
  readonly input: number;
  readonly buffers: readonly BufferItem[];
}

/**
 * The input channel state of an unaligned checkpoint while the barrier handler still collects
 * it: the snapshot was taken at the first barrier, the other channels' buffers up to their
 * barriers come in later. The checkpoint's asynchronous part awaits `result` before it writes
 * channel state; undefined means the checkpoint was aborted meanwhile (already declined).
 */
export class PendingInputState {
  readonly #channels: ChannelBuffers[] = [];
  readonly result: Promise<readonly ChannelBuffers[] | undefined>;
  #settle: ((value: readonly ChannelBuffers[] | undefined) => void) | undefined;

  constructor(readonly checkpointId: number) {
    this.result = new Promise((resolve) => (this.#settle = resolve));
  }

  /** Nothing to collect: a source task, or every input ended. */
  static empty(checkpointId: number): PendingInputState {
    const pending = new PendingInputState(checkpointId);
    pending.complete();
    return pending;
  }

  add(source: ChannelSource, buffers: readonly BufferItem[]): void {
    if (buffers.length !== 0) this.#channels.push({ direction: 'input', vertexId: source.vertexId, subtask: source.subtask, input: source.input, buffers });
  }

  complete(): void {
    this.#settle?.(this.#channels);
    this.#settle = undefined;
  }

  abort(): void {
    this.#settle?.(undefined);
    this.#settle = undefined;
  }
}
