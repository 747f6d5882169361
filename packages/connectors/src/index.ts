/**
 * Weir's sources and sinks (Flink's connectors): data generator, files, Kafka, PostgreSQL, print and
 * discarding sinks.
 *
 * @packageDocumentation
 * @module @weir/connectors
 */
export * from './errors.ts';
export { DataGeneratorSource, DataGeneratorSourceReader, type GeneratorFunction, type GeneratorSplit } from './generator/data-generator-source.ts';
export { RateLimiterStrategy, TokenBucketRateLimiter, type RateLimiter } from './generator/rate-limiter.ts';
export { FileSource, FileSourceBuilder } from './file/file-source.ts';
export { FileSourceReader, type FileSplit } from './file/file-source-reader.ts';
export { FileSplitEnumerator, type FileEnumeratorState } from './file/file-split-enumerator.ts';
export { TextLineInputFormat } from './file/text-line-input-format.ts';
export { PrintSink } from '@weir/api';
export { DiscardingSink } from './sink/discarding-sink.ts';
export { FileSink, FileSinkBuilder } from './sink/file/file-sink.ts';
export { BasePathBucketAssigner, type BucketAssigner } from './sink/file/bucket-assigner.ts';
export { FileSinkWriter, type FileSinkWriterState } from './sink/file/file-sink-writer.ts';
export { FileSinkCommitter, type FileSinkCommittable } from './sink/file/file-sink-committer.ts';
export { SimpleStringEncoder, type Encoder } from './sink/file/encoder.ts';
export { DefaultRollingPolicy, DefaultRollingPolicyBuilder } from './sink/file/rolling-policy.ts';
export * from './kafka/index.ts';
export * from './postgres/index.ts';
export { nexmarkEvent, nexmarkEventType, timestampForEvent, BASE_TIME, EVENT_RATE, FIRST_AUCTION_ID, FIRST_CATEGORY_ID, FIRST_PERSON_ID } from './nexmark/generator.ts';
export { eventTime, type Auction, type Bid, type Event as NexmarkEvent, type Person } from './nexmark/model.ts';
