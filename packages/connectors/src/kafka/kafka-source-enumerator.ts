import type { SplitEnumerator, SplitEnumeratorContext } from '@weir/api';
import { createLogger } from '@weir/common';
import type { OffsetsSpec } from './offsets-initializer.ts';
import { partitionId, type PartitionDiscovery, type TopicPartition } from './partition-discovery.ts';
import type { KafkaPartitionSplit } from './kafka-partition-split.ts';

/** What the enumerator remembers across a restore: every partition it made a split of, and those not assigned yet. */
export interface KafkaEnumeratorState {
  readonly known: readonly string[];
  readonly pending: readonly KafkaPartitionSplit[];
  /** The first discovery ran: partitions found later start at their earliest offset. */
  readonly initialized: boolean;
}

export interface KafkaEnumeratorOptions {
  readonly discovery: PartitionDiscovery;
  readonly starting: OffsetsSpec;
  /** Bounded reads stop at these offsets. */
  readonly stopping: OffsetsSpec | undefined;
  /** partition.discovery.interval.ms; 0 or less: only the first discovery. */
  readonly discoveryIntervalMs: number;
}

/**
 * Flink's KafkaSourceEnumerator: discovers the subscribed partitions (at start and every
 * partition.discovery.interval.ms), makes a split of each partition it has not seen, with its
 * starting offset resolved (the starting OffsetsInitializer for the partitions of the first
 * discovery, the earliest offset for partitions that appear later, so nothing written to them
 * is missed), and assigns it to its owner reader. A bounded source tells each reader no more
 * splits come once the first discovery is assigned.
 */
export class KafkaSourceEnumerator implements SplitEnumerator<KafkaPartitionSplit, KafkaEnumeratorState> {
  readonly #known: Set<string>;
  readonly #pending: KafkaPartitionSplit[];
  #initialized: boolean;
  readonly #logger = createLogger('kafka-source-enumerator');

  constructor(
    private readonly context: SplitEnumeratorContext<KafkaPartitionSplit>,
    private readonly options: KafkaEnumeratorOptions,
    restored?: KafkaEnumeratorState,
  ) {
    this.#known = new Set(restored?.known ?? []);
    this.#pending = [...(restored?.pending ?? [])];
    this.#initialized = restored?.initialized ?? false;
  }

  start(): void {
    const bounded = this.options.stopping !== undefined;
    if (this.#initialized && bounded) return;
    const period = bounded || this.options.discoveryIntervalMs <= 0 ? undefined : this.options.discoveryIntervalMs;
    this.context.callAsync(
      () => this.#discover(),
      (found, error) => {
        if (error !== undefined) {
          // The first discovery decides whether the job can start at all; later ones only add partitions.
          if (!this.#initialized) throw error;
          this.#logger.warn({ err: error }, 'partition discovery failed; trying again next interval');
          return;
        }
        this.#add(found ?? []);
      },
      0,
      period,
    );
  }

  handleSplitRequest(): void {}

  addReader(subtask: number): void {
    this.#assign();
    if (this.options.stopping !== undefined && this.#initialized) this.context.signalNoMoreSplits(subtask);
  }

  addSplitsBack(splits: readonly KafkaPartitionSplit[]): void {
    this.#pending.push(...splits);
    this.#assign();
  }

  snapshotState(): KafkaEnumeratorState {
    return { known: [...this.#known], pending: this.#pending.map((s) => ({ ...s })), initialized: this.#initialized };
  }

  async close(): Promise<void> {
    await this.options.discovery.close();
  }

  async #discover(): Promise<KafkaPartitionSplit[]> {
    const partitions = (await this.options.discovery.partitions()).filter((p) => !this.#known.has(partitionId(p)));
    if (partitions.length === 0) return [];
    const start = await this.options.discovery.resolve(partitions, this.#initialized ? { kind: 'earliest' } : this.options.starting);
    const stop = this.options.stopping === undefined ? undefined : await this.options.discovery.resolve(partitions, this.options.stopping);
    return partitions.map((p: TopicPartition) => ({
      splitId: partitionId(p),
      topic: p.topic,
      partition: p.partition,
      offset: start.get(partitionId(p))!,
      ...(stop === undefined ? {} : { stoppingOffset: stop.get(partitionId(p))! }),
    }));
  }

  #add(found: readonly KafkaPartitionSplit[]): void {
    const fresh = found.filter((s) => !this.#known.has(s.splitId));
    for (const split of fresh) this.#known.add(split.splitId);
    this.#pending.push(...fresh);
    if (fresh.length > 0) this.#logger.info({ partitions: fresh.map((s) => s.splitId) }, this.#initialized ? 'discovered new partitions' : 'discovered partitions');
    const first = !this.#initialized;
    this.#initialized = true;
    this.#assign();
    if (first && this.options.stopping !== undefined) for (const reader of this.context.registeredReaders()) this.context.signalNoMoreSplits(reader);
  }

  /** Hands every pending split whose owner registered to that owner. */
  #assign(): void {
    const registered = this.context.registeredReaders();
    const assignment = new Map<number, KafkaPartitionSplit[]>();
    for (let i = this.#pending.length - 1; i >= 0; i--) {
      const split = this.#pending[i]!;
      const owner = ownerOf(split, this.context.currentParallelism);
      if (!registered.has(owner)) continue;
      this.#pending.splice(i, 1);
      const list = assignment.get(owner) ?? [];
      list.unshift(split);
      assignment.set(owner, list);
    }
    if (assignment.size > 0) this.context.assignSplits(assignment);
  }
}

/** Flink's owner rule: partitions of a topic go round-robin from a start reader chosen by the topic name's hash. */
export function ownerOf({ topic, partition }: TopicPartition, readers: number): number {
  const start = (Math.imul(javaHashCode(topic), 31) & 0x7fffffff) % readers;
  return (start + partition) % readers;
}

function javaHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}
