import type {
  ChannelItem,
  ChannelListener,
  PartitionId,
  PartitionProvider,
  ProducedPartition,
  SubpartitionId,
  Subscription,
} from '@weir/runtime';

/**
 * A PartitionProvider double for tests: each subscription serves a scripted list of items,
 * record buffers only against credit, as the real registry does, and records every credit
 * it is granted so tests can check what crossed the wire.
 */
export class FakePartitions implements PartitionProvider {
  readonly subscriptions: FakeSubscription[] = [];
  readonly #scripts = new Map<string, () => FakeScript>();

  /** What a subscriber of `id` will get: a fresh script per subscription. */
  serve(id: SubpartitionId, script: () => FakeScript): void {
    this.#scripts.set(keyOf(id), script);
  }

  subscribe(id: SubpartitionId, initialCredit: number, listener: ChannelListener): Subscription {
    const script = this.#scripts.get(keyOf(id));
    const subscription = new FakeSubscription(id, script?.() ?? { items: [] }, listener);
    this.subscriptions.push(subscription);
    if (script === undefined) {
      subscription.fail(new Error(`no partition ${keyOf(id)}`));
    } else {
      subscription.addCredit(initialCredit);
    }
    return subscription;
  }
}

export interface FakeScript {
  readonly items: readonly ChannelItem[];
  /** Fail the listener with this error once the items are out. */
  readonly failWith?: Error;
}

export class FakeSubscription implements Subscription {
  readonly id: SubpartitionId;
  readonly creditsGranted: number[] = [];
  buffersSent = 0;
  closed = false;
  readonly #script: FakeScript;
  readonly #listener: ChannelListener;
  #next = 0;
  #credit = 0;

  constructor(id: SubpartitionId, script: FakeScript, listener: ChannelListener) {
    this.id = id;
    this.#script = script;
    this.#listener = listener;
  }

  addCredit(buffers: number): void {
    this.creditsGranted.push(buffers);
    this.#credit += buffers;
    this.#pump();
  }

  close(): void {
    this.closed = true;
  }

  fail(error: Error): void {
    this.#listener.onError(error);
  }

  #pump(): void {
    while (!this.closed && this.#next < this.#script.items.length) {
      const item = this.#script.items[this.#next]!;
      if (item.kind === 'buffer') {
        if (this.#credit === 0) return;
        this.#credit--;
        this.buffersSent++;
      }
      this.#next++;
      this.#listener.onItem(item);
    }
    if (!this.closed && this.#script.failWith !== undefined && this.#next === this.#script.items.length) {
      this.#next++;
      this.#listener.onError(this.#script.failWith);
    }
  }
}

function keyOf(id: SubpartitionId): string {
  return `${id.jobId}/${id.attempt}/${id.producerVertexId}/${id.producerSubtask}/${id.consumerVertexId}/${id.consumerSubtask}`;
}

/** A producer's partition double for the real PartitionRegistry: serves the script to each consumer subtask. */
export class FakeProducedPartition implements ProducedPartition {
  readonly id: PartitionId;
  readonly subscriptions: FakeSubscription[] = [];
  readonly #script: () => FakeScript;

  constructor(id: PartitionId, script: () => FakeScript) {
    this.id = id;
    this.#script = script;
  }

  subscribe(consumerSubtask: number, initialCredit: number, listener: ChannelListener): Subscription {
    const subscription = new FakeSubscription({ ...this.id, consumerSubtask }, this.#script(), listener);
    this.subscriptions.push(subscription);
    subscription.addCredit(initialCredit);
    return subscription;
  }

  release(cause: Error): void {
    for (const subscription of this.subscriptions) if (!subscription.closed) subscription.fail(cause);
  }
}
