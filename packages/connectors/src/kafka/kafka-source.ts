import { randomBytes } from 'node:crypto';
import {
  Boundedness,
  type SourceReaderContext,
  type SplitEnumeratorContext,
  type SplitSource,
  type TypeInformation,
} from '@weir/api';
import { closestKey, WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { parseBootstrapServers, unknownProperty, type KafkaClientSettings } from './kafka-client.ts';
import type { KafkaPartitionSplit } from './kafka-partition-split.ts';
import { KafkaSourceEnumerator, type KafkaEnumeratorState } from './kafka-source-enumerator.ts';
import { KafkaSourceReader } from './kafka-source-reader.ts';
import { OffsetsInitializer } from './offsets-initializer.ts';
import { PartitionDiscovery, type Subscription } from './partition-discovery.ts';
import { KafkaRecordDeserializationSchema, type DeserializationSchema } from './schemas.ts';

/** The default max.partition.fetch.bytes (see below). */
const MAX_PARTITION_FETCH_BYTES = 256 * 1024;
/** Properties taking a byte count. */
const BYTE_PROPERTIES = new Set(['fetch.max.bytes', 'max.partition.fetch.bytes']);

/** Properties a KafkaSource understands (Flink's names), with their defaults. */
const SOURCE_PROPERTY_DEFAULTS = {
  /** Look for new partitions this often (ms); 0 or less: never after the first discovery. */
  'partition.discovery.interval.ms': '30000',
  /** read_committed (the default here: transactional producers' aborted records are never read) or read_uncommitted. */
  'isolation.level': 'read_committed',
  /** Commit each completed checkpoint's offsets to the consumer group (for monitoring). */
  'commit.offsets.on.checkpoint': 'true',
  /** How long brokers may be unreachable before a reader fails its task (ms): the KafkaSink's delivery.timeout.ms default, so both ends of a job wait out a broker restart alike. */
  'unreachable.timeout.ms': '120000',
  /** Upper bound on the bytes of one fetch response. */
  'fetch.max.bytes': String(8 * 1024 * 1024),
  /**
   * Upper bound on what one partition adds to a fetch response (Kafka's name). Below Kafka's
   * 1 MiB: the client decodes a response's records all at once (Kafka's Java consumer decodes
   * them as they are polled), so this bounds how many decoded records a reader holds.
   */
  'max.partition.fetch.bytes': String(MAX_PARTITION_FETCH_BYTES),
  'client.id.prefix': 'weir-kafka-source',
} as const;
type SourceProperty = keyof typeof SOURCE_PROPERTY_DEFAULTS;

/** Everything a KafkaSourceBuilder collected. */
export interface KafkaSourceConfig<T> {
  readonly settings: KafkaClientSettings;
  readonly subscription: Subscription;
  readonly groupId: string | undefined;
  readonly starting: OffsetsInitializer;
  readonly stopping: OffsetsInitializer | undefined;
  readonly deserializer: KafkaRecordDeserializationSchema<T>;
  readonly properties: Readonly<Record<SourceProperty, string>>;
  readonly skipUndeserializable: boolean;
}

/**
 * Reads Kafka topics (Flink's KafkaSource): every partition is a split; the enumerator in the
 * JobManager discovers partitions (and new ones every partition.discovery.interval.ms) and
 * assigns each to a reader; a checkpoint keeps each partition's next offset, and a restore, at
 * any parallelism, continues exactly there. Unbounded unless `setBounded`.
 */
export class KafkaSource<T> implements SplitSource<T, KafkaPartitionSplit, KafkaEnumeratorState> {
  readonly boundedness: Boundedness;
  readonly producedType: TypeInformation<T> | undefined = undefined;

  constructor(readonly config: KafkaSourceConfig<T>) {
    this.boundedness = config.stopping === undefined ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
  }

  /** A builder (Flink's KafkaSource.builder()): set bootstrap servers, topics, group and a deserializer. */
  static builder<T = string>(): KafkaSourceBuilder<T> {
    return new KafkaSourceBuilder<T>();
  }

  createEnumerator(context: SplitEnumeratorContext<KafkaPartitionSplit>): KafkaSourceEnumerator {
    return this.#enumerator(context, undefined);
  }

  restoreEnumerator(context: SplitEnumeratorContext<KafkaPartitionSplit>, checkpoint: KafkaEnumeratorState): KafkaSourceEnumerator {
    const state = checkpoint as Partial<KafkaEnumeratorState> | null;
    if (state === null || !Array.isArray(state.known) || !Array.isArray(state.pending) || typeof state.initialized !== 'boolean') {
      throw new WeirError(ConnectorErrorCode.INVALID_POSITION, `a KafkaSource enumerator resumes from { known, pending, initialized }, got ${JSON.stringify(checkpoint)}`);
    }
    return this.#enumerator(context, { known: state.known, pending: state.pending.map(requireSplit), initialized: state.initialized });
  }

  createReader(context: SourceReaderContext): KafkaSourceReader<T> {
    const { settings, properties } = this.config;
    return new KafkaSourceReader({
      settings: { ...settings, clientId: `${settings.clientId}-${context.subtaskIndex}` },
      deserializer: this.config.deserializer,
      readCommitted: properties['isolation.level'] === 'read_committed',
      groupId: this.config.groupId,
      commitOffsetsOnCheckpoint: properties['commit.offsets.on.checkpoint'] === 'true',
      skipUndeserializable: this.config.skipUndeserializable,
      unreachableTimeoutMs: Number(properties['unreachable.timeout.ms']),
      maxBytesPerFetch: Number(properties['fetch.max.bytes']),
      maxBytesPerPartition: Number(properties['max.partition.fetch.bytes']),
      subtaskIndex: context.subtaskIndex,
    });
  }

  #enumerator(context: SplitEnumeratorContext<KafkaPartitionSplit>, restored: KafkaEnumeratorState | undefined): KafkaSourceEnumerator {
    const { settings, subscription, groupId, starting, stopping, properties } = this.config;
    return new KafkaSourceEnumerator(
      context,
      {
        discovery: new PartitionDiscovery({ ...settings, clientId: `${settings.clientId}-enumerator` }, subscription, groupId),
        starting: starting.spec,
        stopping: stopping?.spec,
        discoveryIntervalMs: Number(properties['partition.discovery.interval.ms']),
      },
      restored,
    );
  }
}

function requireSplit(split: unknown): KafkaPartitionSplit {
  const { splitId, topic, partition, offset, stoppingOffset } = (split ?? {}) as Partial<KafkaPartitionSplit>;
  const whole = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  if (typeof splitId !== 'string' || typeof topic !== 'string' || !whole(partition) || !whole(offset) || (stoppingOffset !== undefined && stoppingOffset !== null && !whole(stoppingOffset))) {
    throw new WeirError(ConnectorErrorCode.INVALID_POSITION, `a KafkaSource split is { splitId, topic, partition, offset, stoppingOffset? }, got ${JSON.stringify(split)}`);
  }
  return { splitId, topic, partition, offset, ...(typeof stoppingOffset === 'number' ? { stoppingOffset } : {}) };
}

/** Flink's KafkaSourceBuilder names. */
export class KafkaSourceBuilder<T> {
  #servers: string[] | undefined;
  #subscription: Subscription | undefined;
  #groupId: string | undefined;
  #starting = OffsetsInitializer.earliest();
  #stopping: OffsetsInitializer | undefined;
  #deserializer: KafkaRecordDeserializationSchema<T> | undefined;
  #skip = false;
  readonly #properties: Record<SourceProperty, string> = { ...SOURCE_PROPERTY_DEFAULTS };

  /** Flink's setBootstrapServers: the brokers, `host:port` comma-separated. */
  setBootstrapServers(servers: string): this {
    this.#servers = parseBootstrapServers(servers);
    return this;
  }

  /** Flink's setTopics: the topics to read (all their partitions). */
  setTopics(...topics: (string | readonly string[])[]): this {
    const list = topics.flat();
    if (list.length === 0 || list.some((t) => typeof t !== 'string' || t === '')) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `setTopics() takes one or more topic names, got ${JSON.stringify(list)}`);
    }
    this.#subscription = { topics: list };
    return this;
  }

  /** Every topic whose name the pattern matches (RegExp.test: anchor it, /^orders-/, for a prefix), found again at every partition discovery, so topics created later are read too. */
  setTopicPattern(pattern: RegExp): this {
    if (!(pattern instanceof RegExp)) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'setTopicPattern() takes a RegExp, such as /^orders-.*/');
    // Without g and y: test() on such a RegExp starts at its lastIndex, so every other topic would be missed.
    this.#subscription = { pattern: new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')) };
    return this;
  }

  /** Flink's setGroupId: the consumer group the committed offsets belong to. */
  setGroupId(groupId: string): this {
    this.#groupId = groupId;
    return this;
  }

  /** Flink's setStartingOffsets: where a partition without restored state starts. */
  setStartingOffsets(initializer: OffsetsInitializer): this {
    this.#starting = requireInitializer(initializer, 'setStartingOffsets');
    return this;
  }

  /** Reads up to these offsets, then the source ends (Flink: setBounded(OffsetsInitializer.latest())). */
  setBounded(initializer: OffsetsInitializer): this {
    this.#stopping = requireInitializer(initializer, 'setBounded');
    return this;
  }

  /** Flink's setValueOnlyDeserializer: turns each record's value bytes into a record (keys and headers ignored). */
  setValueOnlyDeserializer(schema: DeserializationSchema<T>): this {
    if (typeof schema?.deserialize !== 'function') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'setValueOnlyDeserializer() takes a DeserializationSchema, such as new SimpleStringSchema()');
    this.#deserializer = KafkaRecordDeserializationSchema.valueOnly(schema);
    return this;
  }

  /** A deserializer that sees the whole record: key, value, headers, timestamp, partition, offset. */
  setDeserializer(deserializer: KafkaRecordDeserializationSchema<T>): this {
    if (typeof deserializer?.deserialize !== 'function') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'setDeserializer() takes a KafkaRecordDeserializationSchema: { deserialize(record, out) }');
    this.#deserializer = deserializer;
    return this;
  }

  /** Records the deserializer throws on are logged (topic, partition, offset) and skipped instead of failing the job. */
  setSkipUndeserializableRecords(skip: boolean): this {
    this.#skip = skip;
    return this;
  }

  /** Flink's setClientIdPrefix: the prefix of each reader's Kafka client ID. */
  setClientIdPrefix(prefix: string): this {
    return this.setProperty('client.id.prefix', prefix);
  }

  /** Flink's setProperty, for the source's own properties only (differs from Flink: another key fails, naming those it takes). */
  setProperty(key: string, value: string): this {
    if (!(key in SOURCE_PROPERTY_DEFAULTS)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, unknownProperty('KafkaSource', key, Object.keys(SOURCE_PROPERTY_DEFAULTS)));
    }
    if (key === 'isolation.level' && value !== 'read_committed' && value !== 'read_uncommitted') {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `isolation.level is read_committed or read_uncommitted, got '${value}'`);
    }
    if (BYTE_PROPERTIES.has(key) && !(Number.isSafeInteger(Number(value)) && Number(value) > 0)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `${key} takes a number of bytes > 0, got '${value}'`);
    }
    this.#properties[key as SourceProperty] = String(value);
    return this;
  }

  /** The KafkaSource; fails with a clear error when brokers, topics or the deserializer are missing. */
  build(): KafkaSource<T> {
    if (this.#servers === undefined) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a KafkaSource needs setBootstrapServers(host:port,...)');
    if (this.#subscription === undefined) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a KafkaSource needs setTopics(...) or setTopicPattern(...)');
    if (this.#deserializer === undefined) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a KafkaSource needs setValueOnlyDeserializer(...) or setDeserializer(...)');
    const clientId = `${this.#properties['client.id.prefix']}-${randomBytes(3).toString('hex')}`;
    return new KafkaSource<T>({
      settings: { bootstrapServers: this.#servers, clientId },
      subscription: this.#subscription,
      groupId: this.#groupId,
      starting: this.#starting,
      stopping: this.#stopping,
      deserializer: this.#deserializer,
      properties: { ...this.#properties },
      skipUndeserializable: this.#skip,
    });
  }
}

function requireInitializer(initializer: OffsetsInitializer, method: string): OffsetsInitializer {
  if (!(initializer instanceof OffsetsInitializer)) {
    throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `${method}() takes an OffsetsInitializer, such as OffsetsInitializer.earliest()`);
  }
  return initializer;
}
