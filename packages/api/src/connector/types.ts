import type { TypeInformation } from '../types/type-information.ts';

/** What a source reader or sink writer knows about where it runs. */
export interface ConnectorContext {
  readonly jobId: string;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  readonly attemptNumber: number;
}

export const Boundedness = {
  /** The source ends: when every reader reports END_OF_INPUT the job can FINISH. */
  BOUNDED: 'bounded',
  CONTINUOUS_UNBOUNDED: 'continuous-unbounded',
} as const;
export type Boundedness = (typeof Boundedness)[keyof typeof Boundedness];

export const InputStatus = {
  /** Call pollNext again right away. */
  MORE_AVAILABLE: 'more-available',
  /** Nothing now: wait for `isAvailable()` before polling again. */
  NOTHING_AVAILABLE: 'nothing-available',
  /** This reader is done for good. */
  END_OF_INPUT: 'end-of-input',
} as const;
export type InputStatus = (typeof InputStatus)[keyof typeof InputStatus];

export interface ReaderOutput<T> {
  collect(record: T): void;
}

/**
 * One parallel instance of a source (Flink's FLIP-27 SourceReader, simplified: splits are
 * assigned deterministically from subtaskIndex and parallelism). The task calls `pollNext`
 * in a loop and only between calls does anything else (such as a checkpoint), so a reader
 * should emit few records per call, typically one.
 */
export interface SourceReader<T> {
  start?(): void | Promise<void>;
  pollNext(output: ReaderOutput<T>): InputStatus;
  /** Resolves when pollNext may have records again after NOTHING_AVAILABLE. */
  isAvailable(): Promise<void>;
  close?(): void | Promise<void>;
}

export interface Source<T> {
  readonly boundedness: Boundedness;
  /** The type of the records, when the source knows it. */
  readonly producedType?: TypeInformation<T>;
  createReader(context: ConnectorContext): SourceReader<T>;
}

/**
 * One parallel instance of a sink. `write` is called per record; it may return a promise to
 * make the task wait before the next record (backpressure for a slow sink). `flush(true)` is
 * called once at end of input, then `close`.
 */
export interface SinkWriter<T> {
  write(record: T): void | Promise<void>;
  flush(endOfInput: boolean): void | Promise<void>;
  close(): void | Promise<void>;
}

export interface Sink<T> {
  createWriter(context: ConnectorContext): SinkWriter<T> | Promise<SinkWriter<T>>;
}
