import type { Collector } from '@weir/api';

/** Bytes to a value (Flink's DeserializationSchema). */
export interface DeserializationSchema<T> {
  /** The value the bytes hold. */
  deserialize(message: Uint8Array): T;
}

/** A value to bytes (Flink's SerializationSchema). */
export interface SerializationSchema<T> {
  /** The bytes for `element`. */
  serialize(element: T): Uint8Array;
}

/** The bytes as a Buffer: the Kafka client hands over Buffers already, and a view per record was a Buffer allocated per record. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** UTF-8 strings both ways (Flink's SimpleStringSchema). */
export class SimpleStringSchema implements DeserializationSchema<string>, SerializationSchema<string> {
  deserialize(message: Uint8Array): string {
    return asBuffer(message).toString('utf8');
  }

  serialize(element: string): Uint8Array {
    return Buffer.from(String(element), 'utf8');
  }
}

/** JSON text both ways, UTF-8. */
export class JsonSchema<T> implements DeserializationSchema<T>, SerializationSchema<T> {
  deserialize(message: Uint8Array): T {
    return JSON.parse(asBuffer(message).toString('utf8')) as T;
  }

  serialize(element: T): Uint8Array {
    return Buffer.from(JSON.stringify(element), 'utf8');
  }
}

/** One record as a KafkaSource reads it. */
export interface KafkaConsumerRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  /** The record's Kafka timestamp (ms), also the event time the source gives it. */
  readonly timestamp: number;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers: readonly (readonly [string, Uint8Array | null])[];
}

/** Turns a Kafka record (key, value, headers, timestamp, partition, offset) into records for the job (Flink's KafkaRecordDeserializationSchema). */
export interface KafkaRecordDeserializationSchema<T> {
  /** Emits zero or more records for one Kafka record (Flink's collector form). */
  deserialize(record: KafkaConsumerRecord, out: Collector<T>): void;
}

/** Ready-made KafkaRecordDeserializationSchemas (Flink's static factory methods). */
export const KafkaRecordDeserializationSchema = {
  /** Only the value, through `schema`; a record without a value (a tombstone) gives nothing. */
  valueOnly<T>(schema: DeserializationSchema<T>): KafkaRecordDeserializationSchema<T> {
    return {
      deserialize(record, out) {
        if (record.value !== null) out.collect(schema.deserialize(record.value));
      },
    };
  },
};
