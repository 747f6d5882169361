import { randomBytes } from 'node:crypto';
import type { ConnectorContext, ExclusiveResource, Sink, SinkJobSettings } from '@weir/api';
import { createLogger, WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { kafkaFailure, parseBootstrapServers, unknownProperty, type KafkaClientSettings } from './kafka-client.ts';
import { KafkaCommitter } from './kafka-committer.ts';
import type { KafkaRecordSerializationSchema } from './kafka-record-serialization-schema.ts';
import { DeliveryGuarantee, KafkaWriter, type KafkaWriterState } from './kafka-writer.ts';
import { parseTransactionalId, TransactionCoordinatorCalls, transactionTimeoutTooLong } from './transactions.ts';

/** The kind of an EXACTLY_ONCE KafkaSink's exclusive resource (its prefix); `weir kafka transactions` finds a prefix's job by it. */
export const KAFKA_PREFIX_RESOURCE = 'kafka.transactional-id-prefix';
/** 15 minutes: the broker's default transaction.max.timeout.ms, the longest a transaction may stay open. */
const DEFAULT_TRANSACTION_TIMEOUT_MS = 900_000;
/** 2 minutes: Kafka's producer default, so a broker restart or a leader election costs no failover. */
const DEFAULT_DELIVERY_TIMEOUT_MS = 120_000;
/**
 * How long an idle writer waits for more records before it sends (Kafka's linger.ms, whose
 * default is 5 ms): a sink's records come in bursts of a network buffer's worth, and 20 ms
 * lets one produce request carry a burst (2000 records or 512 KiB go out at once) at the
 * cost of at most 20 ms more latency.
 */
const DEFAULT_LINGER_MS = 20;
/** The properties setProperty knows. */
const SINK_PROPERTIES = ['transaction.timeout.ms', 'delivery.timeout.ms', 'linger.ms'];

/** Everything a KafkaSinkBuilder collected. */
export interface KafkaSinkConfig<T> {
  readonly settings: KafkaClientSettings;
  readonly serializer: KafkaRecordSerializationSchema<T>;
  readonly guarantee: DeliveryGuarantee;
  readonly transactionalIdPrefix: string;
  readonly transactionTimeoutMs: number;
  /** How long sends, commits and the start-up's transaction calls keep retrying a cluster they cannot reach before the task fails. */
  readonly deliveryTimeoutMs: number;
  /** How long an idle writer waits for more records before it sends them (linger.ms). */
  readonly lingerMs: number;
}

/**
 * Writes records to Kafka (Flink's KafkaSink) with the chosen DeliveryGuarantee. EXACTLY_ONCE
 * writes each checkpoint's records of a subtask in one transaction, pre-commits (flushes) it at
 * the barrier and commits it when the checkpoint completes; a restore commits what the restored
 * checkpoint promised and aborts the lingering transactions of this sink's prefix that no
 * checkpoint promised.
 */
export class KafkaSink<T> implements Sink<T> {
  constructor(readonly config: KafkaSinkConfig<T>) {}

  /** A builder (Flink's KafkaSink.builder()): set bootstrap servers, a record serializer and a delivery guarantee. */
  static builder<T = string>(): KafkaSinkBuilder<T> {
    return new KafkaSinkBuilder<T>();
  }

  /** EXACTLY_ONCE: a transaction must outlive the checkpoint it belongs to, or the broker aborts it before the commit. */
  validate({ checkpointing }: SinkJobSettings): void {
    const { guarantee, transactionTimeoutMs } = this.config;
    if (guarantee !== DeliveryGuarantee.EXACTLY_ONCE || checkpointing === undefined) return;
    if (transactionTimeoutMs <= checkpointing.intervalMs) {
      throw new WeirError(
        ConnectorErrorCode.INVALID_ARGUMENT,
        `the KafkaSink's transaction.timeout.ms (${transactionTimeoutMs} ms) is not longer than the checkpoint interval (${checkpointing.intervalMs} ms): ` +
          'the broker would abort transactions before their checkpoint completes and their records would be lost; ' +
          'set transaction.timeout.ms well above the checkpoint interval (up to the broker\'s transaction.max.timeout.ms, 15 minutes by default)',
      );
    }
  }

  /**
   * EXACTLY_ONCE: the transactional id prefix on this cluster. Each start aborts the prefix's
   * lingering transactions, so a second running job with it would abort the first one's.
   */
  exclusiveResources(): ExclusiveResource[] {
    const { guarantee, transactionalIdPrefix, settings } = this.config;
    if (guarantee !== DeliveryGuarantee.EXACTLY_ONCE) return [];
    const cluster = [...settings.bootstrapServers].sort().join(',');
    return [{ kind: KAFKA_PREFIX_RESOURCE, scope: cluster, name: transactionalIdPrefix, description: `Kafka transactional.id prefix '${transactionalIdPrefix}' on ${cluster}` }];
  }

  async createWriter(context: ConnectorContext, restoredState?: readonly unknown[]): Promise<KafkaWriter<T>> {
    const { settings, serializer, guarantee, transactionalIdPrefix, transactionTimeoutMs, deliveryTimeoutMs, lingerMs } = this.config;
    const lastCheckpointId = Math.max(0, ...(restoredState ?? []).map(requireWriterState).map((s) => s.checkpointId));
    if (guarantee === DeliveryGuarantee.EXACTLY_ONCE) {
      await abortLingering(this.config, context, restoredState === undefined ? undefined : lastCheckpointId);
      // Canceled meanwhile: a writer would begin a transaction ahead and fence the next attempt's.
      context.signal?.throwIfAborted();
    }
    return new KafkaWriter({ settings, serializer, guarantee, transactionalIdPrefix, transactionTimeoutMs, deliveryTimeoutMs, lingerMs, subtask: context.subtaskIndex, lastCheckpointId });
  }

  createCommitter(): KafkaCommitter {
    return new KafkaCommitter(this.config.settings, this.config.transactionTimeoutMs, this.config.deliveryTimeoutMs);
  }
}

/**
 * Aborts the open transactions of this prefix that belong to this subtask (old subtask
 * indexes k with k mod parallelism = this subtask, so after a rescale each old index has one
 * owner and no new subtask uses an index another aborts) and that no restored checkpoint
 * promised: those named after a later checkpoint than the restored one (all of them on a
 * fresh start). The restored checkpoint's own transactions (named at or before it) were
 * committed before the writer was created.
 */
async function abortLingering<T>(config: KafkaSinkConfig<T>, context: ConnectorContext, restoredCheckpointId: number | undefined): Promise<void> {
  const logger = createLogger('kafka-sink', { subtask: context.subtaskIndex });
  const calls = new TransactionCoordinatorCalls(config.settings, config.deliveryTimeoutMs, context.signal);
  try {
    await requireTimeoutAllowed(calls, config.transactionTimeoutMs);
    const lingering = (await calls.openTransactionalIds()).filter((id) => {
      const parsed = parseTransactionalId(config.transactionalIdPrefix, id);
      return parsed !== undefined && parsed.subtask % context.parallelism === context.subtaskIndex && (restoredCheckpointId === undefined || parsed.checkpointId > restoredCheckpointId);
    });
    for (const id of lingering) await calls.abort(id, config.transactionTimeoutMs);
    if (lingering.length > 0) logger.info({ transactionalIds: lingering }, 'aborted lingering transactions of an earlier attempt');
  } catch (err) {
    throw kafkaFailure(err, config.settings, `aborting lingering transactions of prefix '${config.transactionalIdPrefix}'`);
  } finally {
    await calls.close();
  }
}

/** A transaction timeout the brokers refuse fails every attempt alike: say so before any record is written. */
async function requireTimeoutAllowed(calls: TransactionCoordinatorCalls, transactionTimeoutMs: number): Promise<void> {
  const maxMs = await calls.maxTransactionTimeoutMs();
  if (maxMs !== undefined && transactionTimeoutMs > maxMs) throw transactionTimeoutTooLong(transactionTimeoutMs, maxMs);
}

function requireWriterState(state: unknown): KafkaWriterState {
  const checkpointId = (state as Partial<KafkaWriterState> | null)?.checkpointId;
  if (typeof checkpointId !== 'number' || !Number.isSafeInteger(checkpointId) || checkpointId < 0) {
    throw new WeirError(ConnectorErrorCode.INVALID_RESTORED_STATE, `a KafkaSink writer resumes from { checkpointId }, got ${JSON.stringify(state)}`);
  }
  return { checkpointId };
}

/** Flink's KafkaSinkBuilder names. */
export class KafkaSinkBuilder<T> {
  #servers: string[] | undefined;
  #serializer: KafkaRecordSerializationSchema<T> | undefined;
  #guarantee: DeliveryGuarantee = DeliveryGuarantee.NONE;
  #prefix: string | undefined;
  #timeoutMs = DEFAULT_TRANSACTION_TIMEOUT_MS;
  #deliveryTimeoutMs = DEFAULT_DELIVERY_TIMEOUT_MS;
  #lingerMs = DEFAULT_LINGER_MS;

  /** Flink's setBootstrapServers: the brokers, `host:port` comma-separated. */
  setBootstrapServers(servers: string): this {
    this.#servers = parseBootstrapServers(servers);
    return this;
  }

  /** Flink's setRecordSerializer: the topic and bytes of each record. */
  setRecordSerializer(serializer: KafkaRecordSerializationSchema<T>): this {
    if (typeof serializer?.serialize !== 'function') {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'setRecordSerializer() takes KafkaRecordSerializationSchema.builder()...build()');
    }
    this.#serializer = serializer;
    return this;
  }

  /** Flink's setDeliveryGuarantee: NONE, AT_LEAST_ONCE or EXACTLY_ONCE (Kafka transactions committed at each checkpoint). */
  setDeliveryGuarantee(guarantee: DeliveryGuarantee): this {
    if (!Object.values(DeliveryGuarantee).includes(guarantee)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `setDeliveryGuarantee() takes DeliveryGuarantee.NONE, AT_LEAST_ONCE or EXACTLY_ONCE, got ${JSON.stringify(guarantee)}`);
    }
    this.#guarantee = guarantee;
    return this;
  }

  /** EXACTLY_ONCE: the start of every transactional id of this sink; unique per job (and per sink within a job). */
  setTransactionalIdPrefix(prefix: string): this {
    if (typeof prefix !== 'string' || !/^[A-Za-z0-9._-]+$/.test(prefix)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `setTransactionalIdPrefix() takes letters, digits, '.', '_' and '-', got ${JSON.stringify(prefix)}`);
    }
    this.#prefix = prefix;
    return this;
  }

  /**
   * `transaction.timeout.ms`: how long the broker keeps a transaction open (EXACTLY_ONCE);
   * default 900000 (15 minutes). `delivery.timeout.ms`: how long a send, a commit or the
   * start-up's abort of lingering transactions keeps retrying a cluster it cannot reach
   * (a broker restarting, a leader election) before the task fails; default 120000, Kafka's.
   * `linger.ms`: how long an idle writer waits for more records before it sends; default 20
   * (0 sends each record as it comes while no request is in flight).
   */
  setProperty(key: string, value: string): this {
    if (!SINK_PROPERTIES.includes(key)) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, unknownProperty('KafkaSink', key, SINK_PROPERTIES));
    const ms = Number(value);
    const least = key === 'linger.ms' ? 0 : 1;
    if (!Number.isSafeInteger(ms) || ms < least) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `${key} takes milliseconds >= ${least}, got '${value}'`);
    if (key === 'transaction.timeout.ms') this.#timeoutMs = ms;
    else if (key === 'delivery.timeout.ms') this.#deliveryTimeoutMs = ms;
    else this.#lingerMs = ms;
    return this;
  }

  /** The KafkaSink; fails with a clear error when brokers or the serializer are missing. */
  build(): KafkaSink<T> {
    if (this.#servers === undefined) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a KafkaSink needs setBootstrapServers(host:port,...)');
    if (this.#serializer === undefined) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a KafkaSink needs setRecordSerializer(...)');
    if (this.#guarantee === DeliveryGuarantee.EXACTLY_ONCE && this.#prefix === undefined) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'an EXACTLY_ONCE KafkaSink needs setTransactionalIdPrefix(...), unique to the job');
    }
    return new KafkaSink<T>({
      settings: { bootstrapServers: this.#servers, clientId: `weir-kafka-sink-${randomBytes(3).toString('hex')}` },
      serializer: this.#serializer,
      guarantee: this.#guarantee,
      transactionalIdPrefix: this.#prefix ?? '',
      transactionTimeoutMs: this.#timeoutMs,
      deliveryTimeoutMs: this.#deliveryTimeoutMs,
      lingerMs: this.#lingerMs,
    });
  }
}
