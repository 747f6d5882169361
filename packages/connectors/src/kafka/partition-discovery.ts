import type { Admin, Consumer } from '@platformatic/kafka';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { createAdmin, createFetchClient, kafkaFailure, toOffset, type KafkaClientSettings } from './kafka-client.ts';
import type { OffsetsSpec } from './offsets-initializer.ts';
import { kafkaLibrary } from './kafka-library.ts';

export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

export function partitionId({ topic, partition }: TopicPartition): string {
  return `${topic}-${partition}`;
}

/** What a KafkaSource reads: named topics or every topic matching a pattern. */
export type Subscription = { readonly topics: readonly string[] } | { readonly pattern: RegExp };

/**
 * The enumerator's view of the cluster: the partitions of the subscribed topics, and offsets
 * resolved from an OffsetsInitializer (earliest, latest = last stable offset, by timestamp,
 * committed by the group).
 */
export class PartitionDiscovery {
  readonly #admin: Admin;
  readonly #client: Consumer;

  constructor(
    private readonly settings: KafkaClientSettings,
    private readonly subscription: Subscription,
    private readonly groupId: string | undefined,
  ) {
    this.#admin = createAdmin(settings);
    this.#client = createFetchClient(settings);
  }

  /** Every partition of the subscribed topics now; a named topic that does not exist fails with KAFKA_TOPIC_NOT_FOUND. */
  async partitions(): Promise<TopicPartition[]> {
    let topics: string[];
    try {
      if ('pattern' in this.subscription) {
        const pattern = this.subscription.pattern;
        topics = (await this.#admin.listTopics()).filter((t) => pattern.test(t)).sort();
        if (topics.length === 0) return [];
      } else {
        topics = [...this.subscription.topics];
      }
      const metadata = await this.#admin.metadata({ topics, forceUpdate: true });
      return topics.flatMap((topic) => {
        const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
        return Array.from({ length: count }, (_, partition) => ({ topic, partition }));
      });
    } catch (err) {
      const missing = /Unknown topic (.+)\.$/.exec(err instanceof Error ? err.message : '');
      if (missing !== null) {
        throw new WeirError(
          ConnectorErrorCode.KAFKA_TOPIC_NOT_FOUND,
          `topic '${missing[1]}' does not exist on the Kafka cluster at ${this.settings.bootstrapServers.join(', ')}; create it first (or fix setTopics)`,
          { cause: err },
        );
      }
      throw kafkaFailure(err, this.settings, 'discovering the partitions of the source topics');
    }
  }

  /** The offset each partition starts (or stops) at, by `partitionId`. */
  async resolve(partitions: readonly TopicPartition[], spec: OffsetsSpec): Promise<Map<string, number>> {
    if (partitions.length === 0) return new Map();
    try {
      switch (spec.kind) {
        case 'earliest':
          return await this.#listOffsets(partitions, -2n);
        case 'latest':
          return await this.#listOffsets(partitions, -1n);
        case 'timestamp': {
          const byTime = await this.#listOffsets(partitions, BigInt(Math.floor(spec.timestampMs)));
          const latest = await this.#listOffsets(partitions, -1n);
          return new Map([...byTime].map(([id, offset]) => [id, offset < 0 ? latest.get(id)! : offset]));
        }
        case 'committed':
          return await this.#withReset(partitions, await this.#committed(partitions), spec.reset);
        case 'offsets':
          return await this.#withReset(partitions, new Map(partitions.flatMap((p) => (spec.offsets.has(partitionId(p)) ? [[partitionId(p), spec.offsets.get(partitionId(p))!]] : []))), spec.reset);
      }
    } catch (err) {
      throw kafkaFailure(err, this.settings, 'looking up the offsets of the source partitions');
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.#admin.close(), this.#client.close(true)]);
  }

  async #listOffsets(partitions: readonly TopicPartition[], timestamp: bigint): Promise<Map<string, number>> {
    const byTopic: Record<string, number[]> = {};
    for (const { topic, partition } of partitions) (byTopic[topic] ??= []).push(partition);
    // The client checks partitions against its cached metadata: refresh it, or partitions just added are "not found".
    await this.#client.metadata({ topics: Object.keys(byTopic), forceUpdate: true });
    const offsets = await this.#client.listOffsets({ topics: Object.keys(byTopic), partitions: byTopic, timestamp, isolationLevel: kafkaLibrary().FetchIsolationLevels.READ_COMMITTED });
    return new Map(partitions.map((p) => [partitionId(p), toOffset(offsets.get(p.topic)?.[p.partition] ?? -1n)]));
  }

  async #committed(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    if (this.groupId === undefined) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'OffsetsInitializer.committedOffsets() needs the consumer group: call setGroupId()');
    }
    const [group] = await this.#admin.listConsumerGroupOffsets({ groups: [this.groupId] });
    const committed = new Map<string, number>();
    for (const topic of group?.topics ?? []) {
      for (const p of topic.partitions) if (p.committedOffset >= 0n) committed.set(partitionId({ topic: topic.name, partition: p.partitionIndex }), toOffset(p.committedOffset));
    }
    return new Map(partitions.flatMap((p) => (committed.has(partitionId(p)) ? [[partitionId(p), committed.get(partitionId(p))!]] : [])));
  }

  async #withReset(partitions: readonly TopicPartition[], known: Map<string, number>, reset: string): Promise<Map<string, number>> {
    const rest = partitions.filter((p) => !known.has(partitionId(p)));
    if (rest.length === 0) return known;
    if (reset === 'none') {
      throw new WeirError(
        ConnectorErrorCode.INVALID_ARGUMENT,
        `no committed offset for ${rest.map(partitionId).join(', ')} in group '${this.groupId}', and the offset reset strategy is NONE; ` +
          'use OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST) or LATEST to start such partitions somewhere',
      );
    }
    const fallback = await this.#listOffsets(rest, reset === 'earliest' ? -2n : -1n);
    return new Map([...known, ...fallback]);
  }
}
