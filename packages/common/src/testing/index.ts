/** `@weir/common/testing`: the clock and logger doubles every package's tests use. */
export { ManualClock } from './manual-clock.ts';
export { errorOf, rejectionOf } from './errors.ts';
export { recordingLogger, silentLogger, type LogEntry, type RecordingLogger } from './loggers.ts';
