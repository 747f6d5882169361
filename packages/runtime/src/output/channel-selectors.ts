import { keyGroupForKey, subtaskForKeyGroup } from '@weir/common';
import type { KeySelector } from '@weir/api';
import type { FailureWrapper } from '../operators/operator-failure.ts';

/** Picks the consumer subtask of a record on a FORWARD, REBALANCE or HASH edge. */
export interface ChannelSelector {
  select(record: unknown): number;
}

/** Subtask i sends to subtask i. */
export class ForwardSelector implements ChannelSelector {
  constructor(private readonly channel: number) {}

  select(): number {
    return this.channel;
  }
}

/** Round-robin, each producer starting at its own offset so the consumers' first records spread. */
export class RebalanceSelector implements ChannelSelector {
  #next: number;

  constructor(
    private readonly channels: number,
    producerSubtask: number,
  ) {
    this.#next = producerSubtask % channels;
  }

  select(): number {
    const channel = this.#next;
    this.#next = channel + 1 === this.channels ? 0 : channel + 1;
    return channel;
  }
}

/** By key group, with the consumer's max parallelism: the same key always lands on the subtask owning its key group. */
export class HashSelector implements ChannelSelector {
  constructor(
    private readonly key: KeySelector<unknown, unknown>,
    private readonly maxParallelism: number,
    private readonly channels: number,
    /** The key selector is user code: its errors are the emitting operator's. */
    private readonly failures: FailureWrapper,
  ) {}

  select(record: unknown): number {
    let keyGroup: number;
    try {
      keyGroup = keyGroupForKey(this.key(record), this.maxParallelism);
    } catch (err) {
      throw this.failures.wrap(err);
    }
    return subtaskForKeyGroup(this.maxParallelism, this.channels, keyGroup);
  }
}
