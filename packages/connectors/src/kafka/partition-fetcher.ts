import type { Consumer, RecordsBatch } from '@platformatic/kafka';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { kafkaErrorIds, kafkaFailure, toOffset, type KafkaClientSettings } from './kafka-client.ts';
import type { KafkaConsumerRecord } from './schemas.ts';
import { kafkaLibrary } from './kafka-library.ts';

/** A partition the fetcher reads: from `fetchOffset` on, up to `stoppingOffset` (exclusive) when bounded. */
export interface FetchTarget {
  readonly splitId: string;
  readonly topic: string;
  readonly partition: number;
  fetchOffset: number;
  readonly stoppingOffset: number | undefined;
}

/** The records one fetch round read from one partition, in offset order. */
export interface FetchedRun {
  readonly target: FetchTarget;
  readonly records: KafkaConsumerRecord[];
}

export interface FetchResult {
  readonly runs: FetchedRun[];
  /** Targets whose next offset reached their stopping offset. */
  readonly reachedEnd: FetchTarget[];
}

/** Kafka error codes (FetchResponse partition errors) the fetcher handles itself. */
const RETRIABLE_PARTITION_ERRORS = new Set([3, 5, 6, 9, 74, 75, 78, 100]);
const OFFSET_OUT_OF_RANGE = 1;
/** Records without headers (nearly all) share this one. */
const NO_HEADERS: KafkaConsumerRecord['headers'] = [];

/**
 * One fetch round over some partitions (Flink's KafkaPartitionSplitReader, on the Kafka
 * protocol directly): groups them by leader, sends one Fetch per leader, and turns the batches
 * into records, skipping control batches and, with read_committed, the records of aborted
 * transactions by Kafka's own rule (the aborted-transaction index of the response plus the
 * abort markers), so a KafkaSource never emits what a transactional producer aborted.
 */
export class PartitionFetcher {
  #metadataStale = true;
  /** Given up by its reader (a round that hung): a round that answers after all must not move any offset. */
  #abandoned = false;
  #topicIds = new Map<string, string>();
  #leaders = new Map<string, number>();

  constructor(
    private readonly client: Consumer,
    private readonly settings: KafkaClientSettings,
    private readonly readCommitted: boolean,
    private readonly maxBytes: number,
    /** The most one partition adds to a response (max.partition.fetch.bytes). */
    private readonly maxPartitionBytes: number,
  ) {}

  abandon(): void {
    this.#abandoned = true;
  }

  async fetch(targets: readonly FetchTarget[], maxWaitMs: number): Promise<FetchResult> {
    const runs: FetchedRun[] = [];
    const reachedEnd: FetchTarget[] = [];
    const active = targets.filter((t) => {
      if (t.stoppingOffset !== undefined && t.fetchOffset >= t.stoppingOffset) {
        reachedEnd.push(t);
        return false;
      }
      return true;
    });
    if (active.length === 0) return { runs, reachedEnd };
    await this.#refreshMetadata(active);
    const byLeader = new Map<number, FetchTarget[]>();
    for (const target of active) {
      const leader = this.#leaders.get(target.splitId);
      if (leader === undefined || leader < 0) {
        this.#metadataStale = true;
        continue;
      }
      const list = byLeader.get(leader) ?? [];
      list.push(target);
      byLeader.set(leader, list);
    }
    // Offsets advance only once every leader answered: a failed round is fetched again whole.
    const advanced = new Map<FetchTarget, number>();
    for (const [leader, group] of byLeader) await this.#fetchFrom(leader, group, maxWaitMs, runs, advanced);
    if (this.#abandoned) return { runs: [], reachedEnd: [] };
    for (const [target, next] of advanced) {
      target.fetchOffset = next;
      if (target.stoppingOffset !== undefined && next >= target.stoppingOffset) reachedEnd.push(target);
    }
    return { runs, reachedEnd };
  }

  async #refreshMetadata(targets: readonly FetchTarget[]): Promise<void> {
    if (!this.#metadataStale && targets.every((t) => this.#leaders.has(t.splitId))) return;
    const topics = [...new Set(targets.map((t) => t.topic))];
    let metadata;
    try {
      metadata = await this.client.metadata({ topics, forceUpdate: true });
    } catch (err) {
      throw kafkaFailure(err, this.settings, `reading the metadata of ${topics.join(', ')}`);
    }
    for (const target of targets) {
      const topic = metadata.topics.get(target.topic);
      if (topic === undefined) continue;
      this.#topicIds.set(target.topic, topic.id);
      this.#leaders.set(target.splitId, topic.partitions[target.partition]?.leader ?? -1);
    }
    this.#metadataStale = false;
  }

  async #fetchFrom(leader: number, targets: readonly FetchTarget[], maxWaitMs: number, runs: FetchedRun[], advanced: Map<FetchTarget, number>): Promise<void> {
    const byTopic = new Map<string, FetchTarget[]>();
    for (const t of targets) byTopic.set(t.topic, [...(byTopic.get(t.topic) ?? []), t]);
    let response;
    try {
      response = await this.client.fetch({
        node: leader,
        maxWaitTime: maxWaitMs,
        maxBytes: this.maxBytes,
        isolationLevel: this.readCommitted ? kafkaLibrary().FetchIsolationLevels.READ_COMMITTED : kafkaLibrary().FetchIsolationLevels.READ_UNCOMMITTED,
        topics: [...byTopic].map(([topic, list]) => ({
          topicId: this.#topicIds.get(topic)!,
          partitions: list.map((t) => ({ partition: t.partition, fetchOffset: BigInt(t.fetchOffset), currentLeaderEpoch: -1, lastFetchedEpoch: -1, partitionMaxBytes: Math.min(this.maxBytes, this.maxPartitionBytes) })),
        })),
      });
    } catch (err) {
      this.#metadataStale = true;
      const ids = kafkaErrorIds(err);
      if (ids.has('OFFSET_OUT_OF_RANGE')) throw this.#outOfRange(targets);
      throw kafkaFailure(err, this.settings, `fetching from ${targets.map((t) => t.splitId).join(', ')}`);
    }
    const topicById = new Map([...this.#topicIds].map(([name, id]) => [id, name]));
    for (const topicData of response.responses) {
      const topic = topicById.get(topicData.topicId);
      for (const data of topicData.partitions) {
        const target = targets.find((t) => t.topic === topic && t.partition === data.partitionIndex);
        if (target === undefined) continue;
        if (data.errorCode === OFFSET_OUT_OF_RANGE) throw this.#outOfRange([target]);
        if (data.errorCode !== 0) {
          if (!RETRIABLE_PARTITION_ERRORS.has(data.errorCode)) {
            throw new WeirError(ConnectorErrorCode.KAFKA_ERROR, `Kafka answered fetching ${target.splitId} at offset ${target.fetchOffset} with error code ${data.errorCode}`);
          }
          this.#metadataStale = true;
          continue;
        }
        if (advanced.has(target)) continue;
        const records: KafkaConsumerRecord[] = [];
        advanced.set(target, this.#decode(target, data.records ?? [], data.abortedTransactions, records));
        if (records.length > 0) runs.push({ target, records });
      }
    }
  }

  /** The records of `batches` at or after the target's offset; returns the offset after everything read (control batches too). */
  #decode(target: FetchTarget, batches: readonly RecordsBatch[], abortedTransactions: readonly { producerId: bigint; firstOffset: bigint }[], out: KafkaConsumerRecord[]): number {
    let next = target.fetchOffset;
    const aborted = [...abortedTransactions].sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0));
    const abortedProducers = new Set<bigint>();
    for (const batch of batches) {
      const last = toOffset(batch.firstOffset) + batch.lastOffsetDelta;
      if (last < next) continue;
      const transactional = (batch.attributes & kafkaLibrary().IS_TRANSACTIONAL) !== 0;
      const control = (batch.attributes & kafkaLibrary().IS_CONTROL) !== 0;
      let skip = control;
      if (this.readCommitted && transactional) {
        while (aborted.length > 0 && toOffset(aborted[0]!.firstOffset) <= last) abortedProducers.add(aborted.shift()!.producerId);
        if (control && batch.records[0]?.key?.readInt16BE(2) === 0) abortedProducers.delete(batch.producerId);
        else if (abortedProducers.has(batch.producerId)) skip = true;
      }
      if (!skip) {
        // Converted once per batch: BigInt arithmetic per record allocated a BigInt for each.
        const firstOffset = toOffset(batch.firstOffset);
        const firstTimestamp = toOffset(batch.firstTimestamp);
        for (const record of batch.records) {
          const offset = firstOffset + record.offsetDelta;
          if (offset < next) continue;
          if (target.stoppingOffset !== undefined && offset >= target.stoppingOffset) break;
          out.push({
            topic: target.topic,
            partition: target.partition,
            offset,
            timestamp: firstTimestamp + Number(record.timestampDelta),
            key: record.key,
            value: record.value,
            headers: record.headers.length === 0 ? NO_HEADERS : record.headers.map(([k, v]) => [k?.toString('utf8') ?? '', v] as const),
          });
        }
      }
      next = last + 1;
    }
    return next;
  }

  #outOfRange(targets: readonly FetchTarget[]): WeirError {
    return new WeirError(
      ConnectorErrorCode.KAFKA_ERROR,
      `offset out of range reading ${targets.map((t) => `${t.splitId} at ${t.fetchOffset}`).join(', ')}: the records were deleted (retention) or the topic was recreated since the checkpoint`,
    );
  }
}
