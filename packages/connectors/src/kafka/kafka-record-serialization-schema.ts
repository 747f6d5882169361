import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import type { SerializationSchema } from './schemas.ts';

/** One record for Kafka. */
export interface KafkaProducerRecord {
  readonly topic: string;
  readonly key?: Uint8Array;
  readonly value: Uint8Array;
  readonly partition?: number;
}

/** Turns a job's record into a Kafka record (Flink's KafkaRecordSerializationSchema). */
export interface KafkaRecordSerializationSchema<T> {
  serialize(element: T): KafkaProducerRecord;
}

export const KafkaRecordSerializationSchema = {
  builder<T>(): KafkaRecordSerializationSchemaBuilder<T> {
    return new KafkaRecordSerializationSchemaBuilder<T>();
  },
};

export class KafkaRecordSerializationSchemaBuilder<T> {
  #topic: string | undefined;
  #value: SerializationSchema<T> | undefined;
  #key: SerializationSchema<T> | undefined;
  #partitioner: ((element: T) => number) | undefined;

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

  build(): KafkaRecordSerializationSchema<T> {
    const topic = this.#topic;
    const value = this.#value;
    if (topic === undefined || value === undefined) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a KafkaRecordSerializationSchema needs setTopic(...) and setValueSerializationSchema(...)');
    }
    const key = this.#key;
    const partitioner = this.#partitioner;
    return {
      serialize: (element) => ({
        topic,
        value: value.serialize(element),
        ...(key === undefined ? {} : { key: key.serialize(element) }),
        ...(partitioner === undefined ? {} : { partition: partitioner(element) }),
      }),
    };
  }
}

function requireSchema<T>(schema: SerializationSchema<T>, method: string): SerializationSchema<T> {
  if (typeof schema?.serialize !== 'function') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `${method}() takes a SerializationSchema, such as new SimpleStringSchema()`);
  return schema;
}
