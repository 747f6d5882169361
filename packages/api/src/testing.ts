/** Test helpers for code built on @weir/api (source readers and the like). */
export { RecordingReaderOutput, readerOutputInto, type RecordedOutput } from './testing/reader-output.ts';
export { SplitSourceHarness, type SplitSourceSnapshot } from './testing/split-source-harness.ts';
