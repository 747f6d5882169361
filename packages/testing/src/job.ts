/**
 * What a job under test may import: sources and sinks that run inside the MiniCluster's
 * processes. Nothing here imports more than @weir/api, so `weir run`'s bundle of a test job
 * stays small (the cluster provides @weir/api).
 *
 * @packageDocumentation
 * @module @weir/testing/job
 */
export { CollectSink, COLLECT_DIR_ENV } from './collect/collect-sink.ts';
export { TimestampedCollectionSource, type TimestampedElement } from './sources/timestamped-collection-source.ts';
export { TestingErrorCode } from './errors.ts';
