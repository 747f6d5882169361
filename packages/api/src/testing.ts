/** Test helpers for code built on @weir/api (source readers and the like). */
export { RecordingReaderOutput, readerOutputInto, type RecordedOutput } from './testing/reader-output.ts';
