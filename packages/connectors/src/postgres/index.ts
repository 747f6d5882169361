export { PostgresSink, PostgresSinkBuilder, type PostgresSinkConfig, type ChangelogRecord } from './postgres-sink.ts';
export { PostgresWriter, type PostgresWriterState } from './postgres-writer.ts';
export { PostgresCommitter } from './postgres-committer.ts';
export type { PostgresCommittable } from './prepared-transactions.ts';
export type { PostgresConnectionOptions } from './postgres-connection.ts';
export { PostgresCdcSource, PostgresCdcSourceBuilder, type PostgresCdcSourceConfig } from './cdc/postgres-cdc-source.ts';
export { PostgresCdcReader, type StartupMode } from './cdc/postgres-cdc-reader.ts';
export type { PostgresCdcSplit } from './cdc/cdc-split.ts';
export { ChangeEventDeserializationSchema, JsonDebeziumDeserializationSchema, type ChangeEvent, type ChangeEventSource, type DebeziumDeserializationSchema } from './cdc/change-event.ts';
