import type { Admin, Consumer } from '@platformatic/kafka';
import {
  AvailabilitySignal,
  InputStatus,
  type Collector,
  type ReaderOutput,
  type SourceOutput,
  type SplitSourceReader,
} from '@weir/api';
import { createLogger, WeirError, type Logger } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { createAdmin, createFetchClient, describeKafkaError, isUnreachable, kafkaFailure, type KafkaClientSettings } from './kafka-client.ts';
import type { KafkaPartitionSplit } from './kafka-partition-split.ts';
import { OffsetCommitter } from './offset-committer.ts';
import { PartitionFetcher, type FetchTarget } from './partition-fetcher.ts';
import { ReadAheadQueue } from './read-ahead-queue.ts';
import type { KafkaConsumerRecord, KafkaRecordDeserializationSchema } from './schemas.ts';

export interface KafkaReaderOptions<T> {
  readonly settings: KafkaClientSettings;
  readonly deserializer: KafkaRecordDeserializationSchema<T>;
  readonly readCommitted: boolean;
  /** Consumer group the offsets of completed checkpoints are committed to (for monitoring); none without a group. */
  readonly groupId: string | undefined;
  readonly commitOffsetsOnCheckpoint: boolean;
  /** Skip (and log) records the deserializer throws on, instead of failing the job. */
  readonly skipUndeserializable: boolean;
  /** How long the brokers may be unreachable before the reader fails (its task fails over). */
  readonly unreachableTimeoutMs: number;
  readonly maxBytesPerFetch: number;
  /** max.partition.fetch.bytes: the most one partition adds to a fetch response. */
  readonly maxBytesPerPartition: number;
  readonly subtaskIndex: number;
}

/** A fetch round that takes longer is given up and retried on new connections. */
const FETCH_TIMEOUT_MS = 10_000;

/** The reader fetches again once fewer records than this are queued (a fetch may bring many more). */
const MAX_QUEUED_RECORDS = 5_000;

interface ReaderSplit {
  readonly split: KafkaPartitionSplit;
  /** The offset after the last record emitted: what a checkpoint records. */
  nextOffset: number;
  readonly target: FetchTarget;
  /** The fetcher reached the stopping offset: the split ends once its queued records are emitted. */
  fetchedToEnd: boolean;
  queued: number;
}

/**
 * Reads the partitions assigned to it (Flink's KafkaSourceReader): a background loop fetches
 * ahead into a bounded queue; `pollNext` emits one record at a time through the partition's
 * split output, with the Kafka timestamp as event time. A checkpoint records each partition's
 * next offset; once it completes, those offsets are committed to the consumer group (for
 * monitoring only: a restore uses the checkpoint, never the group's offsets).
 */
export class KafkaSourceReader<T> implements SplitSourceReader<T, KafkaPartitionSplit> {
  readonly #splits = new Map<string, ReaderSplit>();
  readonly #queue = new ReadAheadQueue<ReaderSplit, KafkaConsumerRecord>();
  readonly #available = new AvailabilitySignal();
  readonly #space = new AvailabilitySignal();
  readonly #pendingCommits = new Map<number, KafkaPartitionSplit[]>();
  /** Splits at their end with nothing queued: released at the next poll, so they stop holding the watermark. */
  readonly #drained: ReaderSplit[] = [];
  #client: Consumer;
  #fetcher: PartitionFetcher;
  /** Commits the consumer group offsets; made on the first commit. */
  #admin: Admin | undefined;
  readonly #offsets: OffsetCommitter;
  readonly #logger: Logger;
  /** Records the deserializer produced from one Kafka record, for the split output. */
  readonly #buffer: T[] = [];
  readonly #collector: Collector<T> = { collect: (record) => void this.#buffer.push(record) };
  #loop: Promise<void> | undefined;
  #failure: unknown;
  #noMoreSplits = false;
  #closed = false;

  constructor(private readonly options: KafkaReaderOptions<T>) {
    this.#client = createFetchClient(options.settings);
    this.#fetcher = new PartitionFetcher(this.#client, options.settings, options.readCommitted, options.maxBytesPerFetch, options.maxBytesPerPartition);
    this.#logger = createLogger('kafka-source-reader', { subtask: options.subtaskIndex });
    this.#offsets = new OffsetCommitter((splits) => this.#commitOffsets(splits), this.#logger);
  }

  addSplits(splits: readonly KafkaPartitionSplit[]): void {
    for (const split of splits) {
      if (this.#splits.has(split.splitId)) continue;
      const added: ReaderSplit = {
        split,
        nextOffset: split.offset,
        target: { splitId: split.splitId, topic: split.topic, partition: split.partition, fetchOffset: split.offset, stoppingOffset: split.stoppingOffset },
        fetchedToEnd: split.stoppingOffset !== undefined && split.offset >= split.stoppingOffset,
        queued: 0,
      };
      this.#splits.set(split.splitId, added);
      if (added.fetchedToEnd) this.#drained.push(added);
    }
    this.#logger.info({ partitions: splits.map((s) => `${s.splitId}@${s.offset}`) }, 'reading partitions');
    this.#loop ??= this.#run();
    this.#available.signal();
    this.#space.signal();
  }

  notifyNoMoreSplits(): void {
    this.#noMoreSplits = true;
    this.#available.signal();
  }

  pollNext(output: ReaderOutput<T>): InputStatus {
    while (this.#drained.length > 0) this.#finishIfDone(this.#drained.pop()!, output);
    // A split stays in #splits while it has queued records (#finishIfDone), so the owner is current.
    const split = this.#queue.nextOwner;
    if (split !== undefined) {
      const record = this.#queue.shift()!;
      if (this.#queue.size === MAX_QUEUED_RECORDS - 1) this.#space.signal();
      split.queued--;
      split.nextOffset = record.offset + 1;
      this.#emit(record, output.createOutputForSplit(split.split.splitId));
      this.#finishIfDone(split, output);
      return InputStatus.MORE_AVAILABLE;
    }
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#splits.size === 0 && this.#noMoreSplits) return InputStatus.END_OF_INPUT;
    return InputStatus.NOTHING_AVAILABLE;
  }

  isAvailable(): Promise<void> {
    if (this.#queue.size > 0 || this.#failure !== undefined || (this.#noMoreSplits && this.#splits.size === 0)) return Promise.resolve();
    if (this.#drained.length > 0) return Promise.resolve();
    return this.#available.wait();
  }

  snapshotState(checkpointId: number): KafkaPartitionSplit[] {
    const splits = [...this.#splits.values()].map(({ split, nextOffset }) => ({ ...split, offset: nextOffset }));
    if (this.options.groupId !== undefined && this.options.commitOffsetsOnCheckpoint) this.#pendingCommits.set(checkpointId, splits);
    return splits;
  }

  /** Commits the checkpoint's offsets to the consumer group, for monitoring, in the background; a failure is logged, not fatal (as in Flink). */
  notifyCheckpointComplete(checkpointId: number): void {
    const splits = this.#pendingCommits.get(checkpointId);
    for (const id of [...this.#pendingCommits.keys()]) if (id <= checkpointId) this.#pendingCommits.delete(id);
    if (splits !== undefined) this.#offsets.request(checkpointId, splits);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#space.signal();
    await this.#loop;
    await this.#offsets.close();
    await Promise.resolve(this.#client.close(true)).catch(() => {});
    await this.#admin?.close().catch(() => {});
  }

  async #commitOffsets(splits: readonly KafkaPartitionSplit[]): Promise<void> {
    const byTopic = new Map<string, { partition: number; offset: bigint }[]>();
    for (const s of splits) byTopic.set(s.topic, [...(byTopic.get(s.topic) ?? []), { partition: s.partition, offset: BigInt(s.offset) }]);
    const admin = (this.#admin ??= createAdmin(this.options.settings));
    try {
      await admin.alterConsumerGroupOffsets({ groupId: this.options.groupId!, topics: [...byTopic].map(([name, partitionOffsets]) => ({ name, partitionOffsets })) });
    } catch (err) {
      // Its connections may be to a broker that is gone: the next commit starts on new ones.
      this.#admin = undefined;
      void admin.close().catch(() => {});
      throw err;
    }
  }

  /** One fetch round, or KAFKA_UNREACHABLE if it has not answered in time (a connection to a restarted broker can hang). */
  async #fetchWithin(targets: FetchTarget[], timeoutMs: number): ReturnType<PartitionFetcher['fetch']> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new WeirError(ConnectorErrorCode.KAFKA_UNREACHABLE, `no answer from the Kafka cluster at ${this.options.settings.bootstrapServers.join(', ')} (bootstrap.servers) to a fetch within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.#fetcher.fetch(targets, 200), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Drops every connection (they may be to a broker that is gone) and fetches through new ones from the next round on. */
  #reconnect(): void {
    const old = this.#client;
    this.#fetcher.abandon();
    void Promise.resolve(old.close(true)).catch(() => {});
    this.#client = createFetchClient(this.options.settings);
    this.#fetcher = new PartitionFetcher(this.#client, this.options.settings, this.options.readCommitted, this.options.maxBytesPerFetch, this.options.maxBytesPerPartition);
  }

  #emit(record: KafkaConsumerRecord, output: SourceOutput<T>): void {
    this.#buffer.length = 0;
    try {
      this.options.deserializer.deserialize(record, this.#collector);
    } catch (err) {
      const where = `topic ${record.topic} partition ${record.partition} offset ${record.offset}`;
      if (this.options.skipUndeserializable) {
        this.#logger.warn({ topic: record.topic, partition: record.partition, offset: record.offset, cause: (err as Error).message }, 'skipped a record that cannot be deserialized');
        return;
      }
      throw new WeirError(
        ConnectorErrorCode.KAFKA_DESERIALIZATION_FAILED,
        `cannot deserialize the Kafka record at ${where}: ${(err as Error).message}; fix the record or the deserializer, or skip such records with KafkaSource.builder().setSkipUndeserializableRecords(true)`,
        { cause: err },
      );
    }
    for (const value of this.#buffer) output.collect(value, record.timestamp);
  }

  #finishIfDone(split: ReaderSplit, output: ReaderOutput<T>): void {
    if (!split.fetchedToEnd || split.queued > 0) return;
    this.#splits.delete(split.split.splitId);
    output.releaseOutputForSplit(split.split.splitId);
  }

  /** Fetches until closed: only splits not at their end, only while the queue has room. */
  async #run(): Promise<void> {
    let failingSince: number | undefined;
    while (!this.#closed) {
      if (this.#queue.size >= MAX_QUEUED_RECORDS) {
        await this.#space.wait();
        continue;
      }
      const targets = [...this.#splits.values()].filter((s) => !s.fetchedToEnd).map((s) => s.target);
      if (targets.length === 0) {
        await this.#space.wait();
        continue;
      }
      try {
        const { runs, reachedEnd } = await this.#fetchWithin(targets, FETCH_TIMEOUT_MS);
        failingSince = undefined;
        for (const { target, records } of runs) {
          const split = this.#splits.get(target.splitId);
          if (split === undefined) continue;
          split.queued += records.length;
          this.#queue.push(split, records);
        }
        for (const target of reachedEnd) {
          const split = this.#splits.get(target.splitId);
          if (split === undefined) continue;
          split.fetchedToEnd = true;
          // One with records queued is finished after its last one is emitted.
          if (split.queued === 0) this.#drained.push(split);
        }
        if (runs.length > 0 || reachedEnd.length > 0) this.#available.signal();
      } catch (err) {
        const now = Date.now();
        failingSince ??= now;
        const unreachable = err instanceof WeirError ? err.code === ConnectorErrorCode.KAFKA_UNREACHABLE : isUnreachable(err);
        if (!unreachable || now - failingSince >= this.options.unreachableTimeoutMs) {
          this.#failure = err instanceof WeirError ? err : kafkaFailure(err, this.options.settings, 'fetching records');
          this.#available.signal();
          return;
        }
        this.#logger.warn({ cause: describeKafkaError(err) }, 'fetching from Kafka failed; retrying with new connections');
        this.#reconnect();
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }
}
