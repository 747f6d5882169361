import type { Collector, InputStatus } from '@weir/api';
import type { RecordCodec } from '../codec/record-codec.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';
import type { TaskInput } from './task-input.ts';

/** One restored buffer of input channel state and the head operator's input it goes to. */
export interface ReplayedBuffer {
  readonly target: Collector<unknown>;
  /** The codec of the buffer's input edge. */
  readonly codec: RecordCodec;
  readonly payload: Uint8Array;
}

/**
 * After a restore from an unaligned checkpoint: feeds the restored input channel state to the
 * chain, one record per `emitNext`, before anything of the network input is read.
 */
export class ReplayingInput implements TaskInput {
  #next = 0;
  #records: unknown[] = [];
  #timestamps: ArrayLike<number> | undefined;
  #index = 0;
  #target: Collector<unknown> | undefined;

  constructor(
    private readonly buffers: readonly ReplayedBuffer[],
    private readonly network: TaskInput,
    private readonly timestamp: RecordTimestamp,
  ) {}

  /** Every restored record went to the chain. */
  get replayed(): boolean {
    return this.#next === this.buffers.length && this.#index === this.#records.length;
  }

  emitNext(): InputStatus {
    while (this.#index === this.#records.length) {
      const buffer = this.buffers[this.#next];
      if (buffer === undefined) return this.network.emitNext();
      this.#next++;
      ({ records: this.#records, timestamps: this.#timestamps } = buffer.codec.decode(buffer.payload));
      this.#index = 0;
      this.#target = buffer.target;
    }
    const timestamp = this.#timestamps?.[this.#index];
    this.timestamp.value = timestamp === undefined || Number.isNaN(timestamp) ? undefined : timestamp;
    this.#target!.collect(this.#records[this.#index++]);
    return 'more-available';
  }

  whenAvailable(): Promise<void> {
    return this.#next < this.buffers.length || this.#index < this.#records.length ? Promise.resolve() : this.network.whenAvailable();
  }
}
