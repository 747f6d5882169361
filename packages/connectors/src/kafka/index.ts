export { KafkaSource, KafkaSourceBuilder, type KafkaSourceConfig } from './kafka-source.ts';
export { KafkaSourceEnumerator, type KafkaEnumeratorState } from './kafka-source-enumerator.ts';
export { KafkaSourceReader } from './kafka-source-reader.ts';
export type { KafkaPartitionSplit } from './kafka-partition-split.ts';
export { OffsetsInitializer, OffsetResetStrategy } from './offsets-initializer.ts';
export { KAFKA_PREFIX_RESOURCE, KafkaSink, KafkaSinkBuilder, type KafkaSinkConfig } from './kafka-sink.ts';
export { KafkaTransactionsAdmin, type OpenTransaction } from './kafka-transactions-admin.ts';
export { DeliveryGuarantee, KafkaWriter, type KafkaWriterState } from './kafka-writer.ts';
export { KafkaCommitter } from './kafka-committer.ts';
export type { KafkaCommittable, TransactionDescription } from './transactions.ts';
export { KafkaRecordSerializationSchema, type KafkaProducerRecord } from './kafka-record-serialization-schema.ts';
export {
  SimpleStringSchema,
  JsonSchema,
  KafkaRecordDeserializationSchema,
  type DeserializationSchema,
  type SerializationSchema,
  type KafkaConsumerRecord,
} from './schemas.ts';
