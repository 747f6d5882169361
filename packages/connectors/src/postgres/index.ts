export { PostgresSink, PostgresSinkBuilder, type PostgresSinkConfig, type ChangelogRecord } from './postgres-sink.ts';
export { PostgresWriter, type PostgresWriterState } from './postgres-writer.ts';
export { PostgresCommitter } from './postgres-committer.ts';
export type { PostgresCommittable } from './prepared-transactions.ts';
export type { PostgresConnectionOptions } from './postgres-connection.ts';
