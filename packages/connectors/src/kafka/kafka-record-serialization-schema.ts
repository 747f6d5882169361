import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import type { SerializationSchema } from './schemas.ts';

/** One record for Kafka. */
export interface KafkaProducerRecord {
  readonly topic: string;
  readonly key?: Uint8Array;
  /** null: a tombstone (the key's deletion on a compacted topic, as upsert-kafka writes it). */
  readonly value: Uint8Array | null;
  readonly partition?: number;
  /** The record's timestamp (ms since the epoch); the broker's clock when absent. */
  readonly timestamp?: number;
  /** In order; a key may repeat, as Kafka allows. */
  readonly headers?: readonly KafkaHeader[];
}

/** One Kafka record header: its key and value bytes. */
export type KafkaHeader = readonly [key: string, value: Uint8Array];

/** A record's headers (Flink's HeaderProvider): pairs (a key may repeat) or an object; string values are written as UTF-8. */
export type HeaderProvider<T> = (element: T) => readonly (readonly [string, string | Uint8Array])[] | Readonly<Record<string, string | Uint8Array>>;

/** Turns a job's record into a Kafka record (Flink's KafkaRecordSerializationSchema). */
export interface KafkaRecordSerializationSchema<T> {
  /** The Kafka record (topic, key, value, headers) for `element`. */
  serialize(element: T): KafkaProducerRecord;
}

/** Ready-made KafkaRecordSerializationSchemas (Flink's static builder()). */
export const KafkaRecordSerializationSchema = {
  /** A builder: set the topic and the value schema, optionally a key schema, partitioner and headers. */
  builder<T>(): KafkaRecordSerializationSchemaBuilder<T> {
    return new KafkaRecordSerializationSchemaBuilder<T>();
  },
};

export class KafkaRecordSerializationSchemaBuilder<T> {
  #topic: string | undefined;
  #value: SerializationSchema<T> | undefined;
  #key: SerializationSchema<T> | undefined;
  #partitioner: ((element: T) => number) | undefined;
  #headers: HeaderProvider<T> | undefined;

  setTopic(topic: string): this {
    if (typeof topic !== 'string' || topic === '') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `setTopic() takes a topic name, got ${JSON.stringify(topic)}`);
    this.#topic = topic;
    return this;
  }

  setValueSerializationSchema(schema: SerializationSchema<T>): this {
    this.#value = requireSchema(schema, 'setValueSerializationSchema');
    return this;
  }

  /** The key's bytes (records with equal keys go to one partition, unless a partitioner says otherwise). */
  setKeySerializationSchema(schema: SerializationSchema<T>): this {
    this.#key = requireSchema(schema, 'setKeySerializationSchema');
    return this;
  }

  setPartitioner(partitioner: (element: T) => number): this {
    this.#partitioner = partitioner;
    return this;
  }

  /** Headers for each record (Flink's setHeaderProvider). */
  setHeaderProvider(provider: HeaderProvider<T>): this {
    if (typeof provider !== 'function') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'setHeaderProvider() takes a function of the record returning its headers: [[key, value], ...] or { key: value }');
    this.#headers = provider;
    return this;
  }

  build(): KafkaRecordSerializationSchema<T> {
    const topic = this.#topic;
    const value = this.#value;
    if (topic === undefined || value === undefined) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a KafkaRecordSerializationSchema needs setTopic(...) and setValueSerializationSchema(...)');
    }
    const key = this.#key;
    const partitioner = this.#partitioner;
    const headers = this.#headers;
    return {
      // Built field by field: spreading the optional fields allocated a throwaway object for each, per record.
      serialize: (element) => {
        const record: { -readonly [K in keyof KafkaProducerRecord]: KafkaProducerRecord[K] } = { topic, value: value.serialize(element) };
        if (key !== undefined) record.key = key.serialize(element);
        if (partitioner !== undefined) record.partition = partitioner(element);
        if (headers !== undefined) record.headers = toHeaders(headers(element));
        return record;
      },
    };
  }
}

function requireSchema<T>(schema: SerializationSchema<T>, method: string): SerializationSchema<T> {
  if (typeof schema?.serialize !== 'function') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `${method}() takes a SerializationSchema, such as new SimpleStringSchema()`);
  return schema;
}

const utf8 = new TextEncoder();

function toHeaders(given: ReturnType<HeaderProvider<never>>): KafkaHeader[] {
  const pairs = Array.isArray(given) ? (given as readonly (readonly [string, string | Uint8Array])[]) : Object.entries(given ?? {});
  return pairs.map(([key, value]) => {
    if (typeof key !== 'string' || !(typeof value === 'string' || value instanceof Uint8Array)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `a header provider returns string keys with string or Uint8Array values, got ${JSON.stringify([key, typeof value])}`);
    }
    return [key, typeof value === 'string' ? utf8.encode(value) : value] as const;
  });
}
