import { systemClock, WeirError, type Clock, type Logger } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import { attemptKey, partitionKey } from './partition-key.ts';
import { PendingSubscription } from './pending-subscription.ts';
import type { ChannelListener, PartitionRegistryLike, ProducedPartition, SubpartitionId, Subscription } from './types.ts';

export interface PartitionRegistryOptions {
  clock?: Clock;
  /** How long a subscription waits for its producer to register; default 30 s. */
  subscribeTimeoutMs?: number;
  logger?: Logger;
}

/** The consumer's input (its edge's position among the vertex's inputs) is named when it is not the first. */
export function describeSubpartition(id: SubpartitionId): string {
  return `${id.producerVertexId}[${id.producerSubtask}] -> ${id.consumerVertexId}[${id.consumerSubtask}]${id.consumerInput === 0 ? '' : ` input ${id.consumerInput}`} of job ${id.jobId} attempt ${id.attempt}`;
}

/**
 * The result partitions of the tasks in this process. Consumers, local tasks and the
 * DataExchange server alike, subscribe here; a subscription made before its producer
 * registered waits for it, because the tasks of a job deploy in any order.
 */
export class PartitionRegistry implements PartitionRegistryLike {
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #logger: Logger | undefined;
  readonly #partitions = new Map<string, ProducedPartition>();
  readonly #waiting = new Map<string, Set<PendingSubscription>>();

  constructor(options: PartitionRegistryOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#timeoutMs = options.subscribeTimeoutMs ?? 30_000;
    this.#logger = options.logger;
  }

  subscribe(id: SubpartitionId, initialCredit: number, listener: ChannelListener): Subscription {
    const key = partitionKey(id);
    const pending = new PendingSubscription(id, initialCredit, listener, (p) => this.#forget(key, p));
    let waiters = this.#waiting.get(key);
    if (waiters === undefined) this.#waiting.set(key, (waiters = new Set()));
    waiters.add(pending);
    pending.timer = this.#clock.setTimeout(() => this.#timeOut(key, pending), this.#timeoutMs);
    // Attach on a later tick even when the producer is here: the caller gets its
    // Subscription before the first item or error reaches its listener.
    queueMicrotask(() => {
      const partition = this.#partitions.get(key);
      if (partition !== undefined) this.#attach(key, pending, partition);
    });
    return pending;
  }

  register(partition: ProducedPartition): void {
    const key = partitionKey(partition.id);
    const existing = this.#partitions.get(key);
    if (existing !== undefined && existing !== partition) {
      const { producerVertexId, producerSubtask, consumerVertexId, consumerInput, jobId, attempt } = partition.id;
      throw new WeirError(
        RuntimeErrorCode.DUPLICATE_PARTITION,
        `a partition of ${producerVertexId}[${producerSubtask}] for input ${consumerInput} of ${consumerVertexId} (job ${jobId} attempt ${attempt}) is already ` +
          `registered; each subtask deploys once per attempt`,
      );
    }
    this.#partitions.set(key, partition);
    this.#logger?.debug({ partition: partition.id }, 'partition registered');
    const waiters = this.#waiting.get(key);
    if (waiters !== undefined) for (const pending of [...waiters]) this.#attach(key, pending, partition);
  }

  unregister(partition: ProducedPartition): void {
    const key = partitionKey(partition.id);
    if (this.#partitions.get(key) === partition) this.#partitions.delete(key);
  }

  releaseAttempt(jobId: string, attempt: number): void {
    const prefix = attemptKey(jobId, attempt);
    const cause = new WeirError(
      RuntimeErrorCode.PARTITION_RELEASED,
      `the partitions of job ${jobId} attempt ${attempt} were released: the attempt ended on this TaskManager`,
    );
    for (const [key, partition] of this.#partitions) {
      if (!key.startsWith(prefix)) continue;
      this.#partitions.delete(key);
      partition.release(cause);
    }
    for (const [key, waiters] of this.#waiting) {
      if (!key.startsWith(prefix)) continue;
      for (const pending of [...waiters]) {
        this.#forget(key, pending);
        pending.fail(cause);
      }
    }
  }

  #attach(key: string, pending: PendingSubscription, partition: ProducedPartition): void {
    this.#forget(key, pending);
    pending.attach(partition);
  }

  #timeOut(key: string, pending: PendingSubscription): void {
    pending.timer = undefined;
    if (!pending.waiting) return;
    this.#forget(key, pending);
    const message =
      `no producer registered subpartition ${describeSubpartition(pending.id)} within ${this.#timeoutMs} ms; ` +
      `the producer task was not deployed to this TaskManager or failed before it started`;
    this.#logger?.warn({ subpartition: pending.id }, message);
    pending.fail(new WeirError(RuntimeErrorCode.PARTITION_NOT_FOUND, message));
  }

  #forget(key: string, pending: PendingSubscription): void {
    if (pending.timer !== undefined) {
      this.#clock.clearTimeout(pending.timer);
      pending.timer = undefined;
    }
    const waiters = this.#waiting.get(key);
    if (waiters === undefined) return;
    waiters.delete(pending);
    if (waiters.size === 0) this.#waiting.delete(key);
  }
}
