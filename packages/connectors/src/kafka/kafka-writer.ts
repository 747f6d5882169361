import type { MessageToProduce, Producer } from '@platformatic/kafka';
import type { SinkWriter } from '@weir/api';
import { createLogger, WeirError, type Logger } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { describeKafkaError, kafkaErrorIds, kafkaFailure, type KafkaClientSettings } from './kafka-client.ts';
import type { KafkaRecordSerializationSchema } from './kafka-record-serialization-schema.ts';
import { transactionalIdOf, type KafkaCommittable } from './transactions.ts';
import { kafkaLibrary } from './kafka-library.ts';

export const DeliveryGuarantee = {
  /** Records go out as they come; a failure may lose or duplicate some. */
  NONE: 'NONE',
  /** Every checkpoint waits until the broker acknowledged all records before it: nothing lost, duplicates possible after a failure. */
  AT_LEAST_ONCE: 'AT_LEAST_ONCE',
  /** One Kafka transaction per checkpoint and subtask, committed when the checkpoint completes: read_committed consumers see each record once. */
  EXACTLY_ONCE: 'EXACTLY_ONCE',
} as const;
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
  readonly subtask: number;
  /** The checkpoint the writer was restored from; 0 for a fresh start. */
  readonly lastCheckpointId: number;
}

interface OpenTransaction {
  readonly id: string;
  readonly send: (messages: MessageToProduce[]) => Promise<unknown>;
}

/** Records sent per produce request. */
const BATCH_RECORDS = 2_000;
/** Batches handed to the producer and not yet acknowledged before `write` makes the task wait. */
const MAX_IN_FLIGHT = 4;
/** A partial batch goes out after this long (NONE and AT_LEAST_ONCE; transactions wait for the checkpoint anyway). */
const LINGER_MS = 20;

/**
 * Flink's KafkaWriter. EXACTLY_ONCE: records of the interval before checkpoint n go into the
 * transaction `<prefix>-<subtask>-<n>` (begun on the first record after checkpoint n-1);
 * `prepareCommit(n)` flushes it and hands over its transactional id, producer id and epoch,
 * and leaves it open: the committer commits it once checkpoint n completes, from whatever
 * process then runs the sink.
 */
export class KafkaWriter<T> implements SinkWriter<T> {
  readonly #logger: Logger;
  #producer: Producer | undefined;
  /** The open transaction, once begun; batches sent while it is being begun wait for the same one (a second InitProducerId would fence the first). */
  #transaction: Promise<OpenTransaction> | undefined;
  #batch: MessageToProduce[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  /**
   * The last batch sent with idempotence (AT_LEAST_ONCE, EXACTLY_ONCE): the next waits for it.
   * Concurrent sends of one idempotent producer can reach the broker out of order (one waits
   * for AddPartitionsToTxn or metadata while a later one goes out), which the broker refuses
   * with OUT_OF_ORDER_SEQUENCE_NUMBER, and a restarted task would run into it again.
   */
  #previous: Promise<unknown> = Promise.resolve();
  #linger: NodeJS.Timeout | undefined;
  #failure: WeirError | undefined;
  #lastCheckpointId: number;
  #written = false;

  constructor(private readonly options: KafkaWriterOptions<T>) {
    this.#logger = createLogger('kafka-writer', { subtask: options.subtask });
    this.#lastCheckpointId = options.lastCheckpointId;
  }

  write(record: T): void | Promise<void> {
    this.#throwIfFailed();
    const { topic, key, value, partition } = this.options.serializer.serialize(record);
    this.#batch.push({ topic, value: Buffer.from(value), ...(key === undefined ? {} : { key: Buffer.from(key) }), ...(partition === undefined ? {} : { partition }) });
    this.#written = true;
    if (this.#batch.length >= BATCH_RECORDS) this.#sendBatch();
    else if (this.options.guarantee !== DeliveryGuarantee.EXACTLY_ONCE) this.#linger ??= setTimeout(() => this.#sendBatch(), LINGER_MS);
    if (this.#inFlight.size >= MAX_IN_FLIGHT) return Promise.race(this.#inFlight).then(() => this.#throwIfFailed());
  }

  /** AT_LEAST_ONCE and EXACTLY_ONCE: everything written is acknowledged by the broker when this resolves; NONE only at end of input. */
  async flush(endOfInput: boolean): Promise<void> {
    this.#sendBatch();
    if (this.options.guarantee !== DeliveryGuarantee.NONE || endOfInput) await this.#drain();
    this.#throwIfFailed();
  }

  async prepareCommit(checkpointId: number): Promise<KafkaCommittable[]> {
    this.#lastCheckpointId = checkpointId;
    if (this.options.guarantee !== DeliveryGuarantee.EXACTLY_ONCE) return [];
    await this.flush(false);
    const producer = this.#producer;
    const transaction = await this.#transaction;
    this.#producer = undefined;
    this.#transaction = undefined;
    this.#written = false;
    if (producer === undefined || transaction === undefined) return [];
    const committable: KafkaCommittable = { transactionalId: transaction.id, producerId: String(producer.producerId), epoch: producer.producerEpoch! };
    // Left open on purpose: the committer ends it by id and epoch once the checkpoint completes.
    await producer.close().catch(() => {});
    this.#logger.debug({ checkpointId, transactionalId: transaction.id }, 'transaction prepared for commit');
    return [committable];
  }

  snapshotState(checkpointId: number): KafkaWriterState {
    return { checkpointId };
  }

  async close(): Promise<void> {
    clearTimeout(this.#linger);
    await Promise.allSettled(this.#inFlight);
    // An open transaction is aborted by the next attempt's writer (or times out): nothing promised it.
    await this.#producer?.close().catch(() => {});
    this.#producer = undefined;
  }

  #sendBatch(): void {
    clearTimeout(this.#linger);
    this.#linger = undefined;
    if (this.#batch.length === 0) return;
    const messages = this.#batch;
    this.#batch = [];
    const idempotent = this.options.guarantee !== DeliveryGuarantee.NONE;
    const sending = idempotent ? this.#previous.then(() => this.#send(messages)) : this.#send(messages);
    if (idempotent) this.#previous = sending;
    const sent = sending.catch((err: unknown) => {
      this.#failure ??= this.#sendFailure(err, messages[0]!.topic);
    });
    const tracked = sent.finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  async #send(messages: MessageToProduce[]): Promise<void> {
    if (this.options.guarantee !== DeliveryGuarantee.EXACTLY_ONCE) {
      await (this.#producer ??= this.#plainProducer()).send({ messages });
      return;
    }
    const transaction = await (this.#transaction ??= this.#beginTransaction());
    await transaction.send(messages);
  }

  /** The transaction of the checkpoint after the last one: fences and aborts whatever held its id. */
  async #beginTransaction(): Promise<OpenTransaction> {
    const id = transactionalIdOf(this.options.transactionalIdPrefix, this.options.subtask, this.#lastCheckpointId + 1);
    const producer = new (kafkaLibrary().Producer)({
      clientId: `${this.options.settings.clientId}-${this.options.subtask}`,
      bootstrapBrokers: [...this.options.settings.bootstrapServers],
      idempotent: true,
      transactionalId: id,
      // The library sends this as InitProducerId's transaction timeout (and as produce's ack timeout).
      timeout: this.options.transactionTimeoutMs,
      // -1/-1: a fresh InitProducerId for this id (the library's default of 0/0 is refused as fenced once the id was used).
      producerId: -1n,
      producerEpoch: -1,
      retries: 3,
    });
    this.#producer = producer;
    const tx = await producer.beginTransaction();
    return { id, send: (messages) => tx.send({ messages }) };
  }

  #plainProducer(): Producer {
    const atLeastOnce = this.options.guarantee === DeliveryGuarantee.AT_LEAST_ONCE;
    return new (kafkaLibrary().Producer)({
      clientId: `${this.options.settings.clientId}-${this.options.subtask}`,
      bootstrapBrokers: [...this.options.settings.bootstrapServers],
      idempotent: atLeastOnce,
      ...(atLeastOnce ? {} : { acks: kafkaLibrary().ProduceAcks.LEADER }),
      retries: 3,
    });
  }

  async #drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
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
    if (ids.has('INVALID_TRANSACTION_TIMEOUT')) {
      return new WeirError(
        ConnectorErrorCode.INVALID_ARGUMENT,
        `the broker refused the KafkaSink's transaction.timeout.ms (${this.options.transactionTimeoutMs} ms): it must not exceed the broker's transaction.max.timeout.ms (15 minutes by default)`,
        { cause: err },
      );
    }
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
