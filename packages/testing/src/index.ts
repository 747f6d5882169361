/**
 * Testing Weir jobs (Flink's flink-test-utils and operator test harnesses): MiniCluster, the
 * operator test harnesses, CollectSink and TimestampedCollectionSource.
 *
 * @packageDocumentation
 * @module @weir/testing
 */
export { MiniCluster, JobExecution, type MiniClusterOptions, type ExecuteOptions, type JobServiceCalls } from './mini-cluster.ts';
export { CollectSink, COLLECT_DIR_ENV } from './collect/collect-sink.ts';
export { readCollected } from './collect/read-collected.ts';
export { TimestampedCollectionSource, type TimestampedElement } from './sources/timestamped-collection-source.ts';
export { AbstractStreamOperatorTestHarness, type StreamRecord, type HarnessSnapshot } from './harness/harness-base.ts';
export { KeyedOneInputStreamOperatorTestHarness } from './harness/keyed-harness.ts';
export { OneInputStreamOperatorTestHarness } from './harness/one-input-harness.ts';
export { TwoInputStreamOperatorTestHarness } from './harness/two-input-harness.ts';
export { TestingErrorCode } from './errors.ts';
