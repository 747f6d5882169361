/** Picks the consumer subtask of a record on a FORWARD or REBALANCE edge (keyBy edges route by key group in KeyedRecordWriter). */
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
