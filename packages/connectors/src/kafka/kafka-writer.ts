import type { MessageToProduce } from '@platformatic/kafka';
import type { SinkWriter } from '@weir/api';
import { createLogger, WeirError, type Logger } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { describeKafkaError, kafkaErrorIds, kafkaFailure, type KafkaClientSettings } from './kafka-client.ts';
import type { KafkaRecordSerializationSchema } from './kafka-record-serialization-schema.ts';
import { transactionalIdOf, transactionTimeoutTooLong, type KafkaCommittable } from './transactions.ts';
import { ProducePipeline } from './produce-pipeline.ts';
import { kafkaSinkProducers, type SinkProducer, type SinkProducers } from './sink-producers.ts';

/** What a KafkaSink guarantees across failures (Flink's DeliveryGuarantee). */
export const DeliveryGuarantee = {
  /** Records go out as they come; a failure may lose or duplicate some. */
  NONE: 'NONE',
  /** Every checkpoint waits until the broker acknowledged all records before it: nothing lost, duplicates possible after a failure. */
  AT_LEAST_ONCE: 'AT_LEAST_ONCE',
  /** One Kafka transaction per checkpoint and subtask, committed when the checkpoint completes: read_committed consumers see each record once. */
  EXACTLY_ONCE: 'EXACTLY_ONCE',
} as const;
/** One of the DeliveryGuarantee values. */
export type DeliveryGuarantee = (typeof DeliveryGuarantee)[keyof typeof DeliveryGuarantee];

/** What a KafkaSink writer keeps in a checkpoint: the checkpoint it was taken for (its transactions are named after checkpoints). */
export interface KafkaWriterState {
  readonly checkpointId: number;
}

export interface KafkaWriterOptions<T> {
  readonly settings: KafkaClientSettings;
  readonly serializer: KafkaRecordSerializationSchema<T>;
  readonly guarantee: DeliveryGuarantee;
  readonly transactionalIdPrefix: string;
  readonly transactionTimeoutMs: number;
  /** How long a send retries a cluster it cannot reach (the producer's own retries, which keep its sequence numbers). */
  readonly deliveryTimeoutMs: number;
  /** How long an idle writer waits for more records before it sends (linger.ms); default 20. */
  readonly lingerMs?: number;
  readonly subtask: number;
  /** The checkpoint the writer was restored from; 0 for a fresh start. */
  readonly lastCheckpointId: number;
  /** Default: producers of @platformatic/kafka on `settings`. */
  readonly producers?: SinkProducers;
}

/** EXACTLY_ONCE: the transaction records go into, and its producer. */
interface Transaction {
  readonly id: string;
  readonly producer: SinkProducer;
  /** Resolves once the producer was initialized for the id (InitProducerId); sends wait for it. */
  readonly begun: Promise<(messages: MessageToProduce[]) => Promise<unknown>>;
}

/**
 * The serializer's bytes as a Buffer without copying them (the client hashes only Buffer keys
 * for the partition): a serialization schema hands over bytes the sink may keep, as Flink's
 * does with the byte[] of a ProducerRecord.
 */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** An idle writer sends once this many records wait... */
const BATCH_RECORDS = 2_000;
/** ...or linger.ms after the first of them (20 ms unless the sink sets it). */
const LINGER_MS = 20;
/** One produce request carries at most this many records... */
const MAX_REQUEST_RECORDS = 10_000;
/** ...and this many bytes of keys and values: half the broker's default max.message.bytes, so one partition's record batch stays under it. */
const MAX_REQUEST_BYTES = 512 * 1024;

/**
 * Flink's KafkaWriter. EXACTLY_ONCE: records of the interval before checkpoint n go into the
 * transaction `<prefix>-<subtask>-<n>`; `prepareCommit(n)` flushes it and hands over its
 * transactional id, producer id and epoch, and leaves it open: the committer commits it once
 * checkpoint n completes, from whatever process then runs the sink. As in Flink, the next
 * transaction is begun ahead (when the writer starts, and at a prepareCommit that had
 * records), so its InitProducerId round trips overlap the checkpoint instead of holding up the
 * next interval's first records. After an idle interval the next one begins on its first
 * record, so an idle sink does not register a transactional id per checkpoint with the broker.
 */
export class KafkaWriter<T> implements SinkWriter<T> {
  readonly #logger: Logger;
  readonly #producers: SinkProducers;
  /** NONE and AT_LEAST_ONCE: one producer for the writer's life. */
  #plain: SinkProducer | undefined;
  #transaction: Transaction | undefined;
  readonly #pipeline: ProducePipeline<MessageToProduce>;
  #lastCheckpointId: number;
  /** The partition (modulo the topic's count, which the client takes) of this request's records that have neither key nor partition. */
  #stickyPartition: number;
  /** Records went into the current transaction since the last prepareCommit. */
  #written = false;
  /** flush(true) came: no records follow, so no transaction is begun ahead. */
  #ended = false;

  constructor(private readonly options: KafkaWriterOptions<T>) {
    this.#logger = createLogger('kafka-writer', { subtask: options.subtask });
    this.#lastCheckpointId = options.lastCheckpointId;
    this.#stickyPartition = options.subtask;
    this.#producers = options.producers ?? kafkaSinkProducers(options.settings, options.subtask, options.transactionTimeoutMs, options.deliveryTimeoutMs);
    this.#pipeline = new ProducePipeline({
      send: (messages) => this.#send(this.#stick(messages)).catch((err: unknown) => Promise.reject(this.#sendFailure(err, messages[0]!.topic))),
      batchRecords: BATCH_RECORDS,
      lingerMs: options.lingerMs ?? LINGER_MS,
      maxRequestRecords: MAX_REQUEST_RECORDS,
      maxRequestBytes: MAX_REQUEST_BYTES,
    });
    if (options.guarantee === DeliveryGuarantee.EXACTLY_ONCE) this.#transaction = this.#beginTransaction();
  }

  write(record: T): void | Promise<void> {
    const { topic, key, value, partition, headers, timestamp } = this.options.serializer.serialize(record);
    this.#written = true;
    // Built field by field: spreading optional fields allocated a throwaway object for each.
    // A null value goes on the wire as length -1: Kafka's tombstone (the library's type leaves it out).
    const message: MessageToProduce = { topic, value: value === null ? (null as unknown as Buffer) : asBuffer(value) };
    if (key !== undefined) message.key = asBuffer(key);
    if (partition !== undefined) message.partition = partition;
    if (timestamp !== undefined) message.timestamp = BigInt(timestamp);
    // Buffer keys: a Map keyed by them keeps a key that repeats (Kafka allows it).
    if (headers !== undefined && headers.length > 0) message.headers = new Map(headers.map(([k, v]) => [Buffer.from(k), asBuffer(v)]));
    return this.#pipeline.add(message);
  }

  /** AT_LEAST_ONCE and EXACTLY_ONCE: everything written is acknowledged by the broker when this resolves; NONE only at end of input. */
  async flush(endOfInput: boolean): Promise<void> {
    if (endOfInput) this.#ended = true;
    // NONE: records go out within the linger time anyway, and a refusal surfaces on the next write.
    if (this.options.guarantee === DeliveryGuarantee.NONE && !endOfInput) return;
    await this.#pipeline.flush();
  }

  async prepareCommit(checkpointId: number): Promise<KafkaCommittable[]> {
    if (this.options.guarantee !== DeliveryGuarantee.EXACTLY_ONCE) {
      this.#lastCheckpointId = checkpointId;
      return [];
    }
    // A transaction the flush begins is named after the last checkpoint before this one, not
    // this one: the next interval's transaction is named after this one, and a second
    // InitProducerId for the same id would abort the transaction handed over here.
    await this.flush(false);
    this.#lastCheckpointId = checkpointId;
    const transaction = this.#transaction;
    const written = this.#written;
    this.#transaction = undefined;
    this.#written = false;
    if (transaction === undefined) return [];
    if (!written) {
      // Nothing was added to it, so the broker holds no open transaction for its id: nothing to commit.
      void transaction.producer.close().catch(() => {});
      return [];
    }
    if (!this.#ended) this.#transaction = this.#beginTransaction();
    // Every record written is acknowledged (flush), so the producer was initialized: its id and epoch are known.
    const { id, producer } = transaction;
    const committable: KafkaCommittable = { transactionalId: id, producerId: String(producer.producerId), epoch: producer.producerEpoch! };
    // Left open on purpose: the committer ends it by id and epoch once the checkpoint completes.
    await producer.close().catch(() => {});
    this.#logger.debug({ checkpointId, transactionalId: id }, 'transaction prepared for commit');
    return [committable];
  }

  snapshotState(checkpointId: number): KafkaWriterState {
    return { checkpointId };
  }

  async close(): Promise<void> {
    await this.#pipeline.close();
    // An open transaction is aborted by the next attempt's writer (or times out): nothing promised it.
    await this.#transaction?.producer.close().catch(() => {});
    await this.#plain?.close().catch(() => {});
    this.#transaction = undefined;
    this.#plain = undefined;
  }

  /**
   * Kafka's sticky partitioning (its default partitioner since 2.4, which Flink's KafkaSink
   * uses): the records without key or partition of one request all go to one partition, the
   * next request's to the next. The client would spread them one by one over the partitions,
   * so every request carried a record batch per partition (more framing and checksums for it
   * and the broker), and looked up its round-robin counter per record.
   */
  #stick(messages: MessageToProduce[]): MessageToProduce[] {
    const partition = this.#stickyPartition++;
    for (const message of messages) if (message.partition === undefined && message.key === undefined) message.partition = partition;
    return messages;
  }

  async #send(messages: MessageToProduce[]): Promise<void> {
    if (this.options.guarantee !== DeliveryGuarantee.EXACTLY_ONCE) {
      await (this.#plain ??= this.#producers.plain(this.options.guarantee === DeliveryGuarantee.AT_LEAST_ONCE)).send({ messages });
      return;
    }
    const send = await (this.#transaction ??= this.#beginTransaction()).begun;
    await send(messages);
  }

  /** The transaction of the checkpoint after the last one: its InitProducerId fences and aborts whatever held its id. */
  #beginTransaction(): Transaction {
    const id = transactionalIdOf(this.options.transactionalIdPrefix, this.options.subtask, this.#lastCheckpointId + 1);
    const producer = this.#producers.transactional(id);
    const begun = producer.beginTransaction().then((tx) => (messages: MessageToProduce[]) => tx.send({ messages }));
    // Begun ahead, nothing may await it before it fails: the first send into it reports the failure.
    begun.catch(() => {});
    return { id, producer, begun };
  }

  #sendFailure(err: unknown, topic: string): WeirError {
    const ids = kafkaErrorIds(err);
    const detail = describeKafkaError(err);
    if (ids.has('PRODUCER_FENCED') || ids.has('INVALID_PRODUCER_EPOCH') || ids.has('TRANSACTIONAL_ID_AUTHORIZATION_FAILED') || ids.has('INVALID_TXN_STATE')) {
      return new WeirError(
        ConnectorErrorCode.KAFKA_PRODUCER_FENCED,
        `the KafkaSink transaction of subtask ${this.options.subtask} after checkpoint ${this.#lastCheckpointId} was fenced: another producer took over its transactional id (two jobs or sinks share the transactional id prefix '${this.options.transactionalIdPrefix}': give each its own setTransactionalIdPrefix), ` +
          `or the broker aborted it after transaction.timeout.ms (${this.options.transactionTimeoutMs} ms) passed without a commit: ${detail}`,
        { cause: err },
      );
    }
    if (ids.has('INVALID_TRANSACTION_TIMEOUT')) return transactionTimeoutTooLong(this.options.transactionTimeoutMs, undefined, err);
    if (/Unknown topic/i.test(detail) || ids.has('UNKNOWN_TOPIC_OR_PARTITION')) {
      return new WeirError(
        ConnectorErrorCode.KAFKA_TOPIC_NOT_FOUND,
        `topic '${topic}' does not exist on the Kafka cluster at ${this.options.settings.bootstrapServers.join(', ')}; create it first (or fix the KafkaRecordSerializationSchema's setTopic)`,
        { cause: err },
      );
    }
    return kafkaFailure(err, this.options.settings, `writing to topic ${topic}`);
  }
}
