import type { Watermark } from '../time/watermark.ts';
import type { TypeInformation } from '../types/type-information.ts';

/** What a source reader or sink writer knows about where it runs. */
export interface ConnectorContext {
  readonly jobId: string;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  readonly attemptNumber: number;
  /**
   * Aborted when the task is canceled or fails (not in Flink, whose cancel interrupts the task's
   * thread). A connector that waits on an outside system while it is created or opened (a
   * broker that is down, say) stops waiting when it fires, so the canceled attempt does nothing
   * after the next attempt started. Absent in harnesses that never cancel.
   */
  readonly signal?: AbortSignal;
}

/** Whether a source ends (Flink's Boundedness). */
export const Boundedness = {
  /** The source ends: when every reader reports END_OF_INPUT the job can FINISH. */
  BOUNDED: 'bounded',
  /** The source never ends by itself (Kafka, CDC): the job runs until canceled or stopped. */
  CONTINUOUS_UNBOUNDED: 'continuous-unbounded',
} as const;
/** One of the Boundedness values. */
export type Boundedness = (typeof Boundedness)[keyof typeof Boundedness];

/** What `SourceReader.pollNext` reports (Flink's InputStatus). */
export const InputStatus = {
  /** Call pollNext again right away. */
  MORE_AVAILABLE: 'more-available',
  /** Nothing now: wait for `isAvailable()` before polling again. */
  NOTHING_AVAILABLE: 'nothing-available',
  /** This reader is done for good. */
  END_OF_INPUT: 'end-of-input',
} as const;
/** One of the InputStatus values. */
export type InputStatus = (typeof InputStatus)[keyof typeof InputStatus];

/**
 * Where a reader (or one of its splits) emits records and, when it knows event time itself,
 * watermarks (Flink's SourceOutput). `timestamp` is the record's own time (a Kafka record's
 * timestamp, say): the source's WatermarkStrategy sees it as `recordTimestamp`, and without a
 * timestamp assigner it is the record's event time.
 */
export interface SourceOutput<T> {
  /** Emits one record, with its own timestamp when the reader knows one. */
  collect(record: T, timestamp?: number): void;
  /** Most readers leave watermarks to the WatermarkStrategy; this is for readers that know them (Flink's SourceOutput#emitWatermark). */
  emitWatermark(watermark: Watermark): void;
  /** This output has nothing for now: its watermark stops holding back the reader's until it emits again. */
  markIdle(): void;
  /** This output emits again after `markIdle`: its watermark counts again. */
  markActive(): void;
}

/**
 * A reader's output (Flink's ReaderOutput). Records collected here share one watermark
 * generator. A reader with splits (Kafka partitions, file blocks) should emit each split's
 * records through `createOutputForSplit(splitId)`: every split output has its own watermark
 * generator, and the reader's watermark is the minimum over its split outputs that are not
 * idle (Flink's per-split watermarks), so a partition that is behind holds the watermark
 * back and one that has nothing does not, after the strategy's idleness timeout.
 *
 * For a split source (`SplitSourceReader`) the runtime makes each split's output when the
 * split is assigned, before `addSplits`: a split that has emitted nothing yet holds the
 * watermark back from then on, so the reader must release every split it was given once the
 * split is done, also one that had nothing left to read when it came.
 */
export interface ReaderOutput<T> extends SourceOutput<T> {
  /** The split's own output: the same object for the same `splitId` until it is released. */
  createOutputForSplit(splitId: string): SourceOutput<T>;
  /** The split is finished (or handed away): its watermark no longer counts. */
  releaseOutputForSplit(splitId: string): void;
}

/**
 * One parallel instance of a source (Flink's FLIP-27 SourceReader, simplified: splits are
 * assigned deterministically from subtaskIndex and parallelism). The task calls `pollNext`
 * in a loop and only between calls does anything else (such as a checkpoint), so a reader
 * should emit few records per call, typically one.
 */
export interface SourceReader<T> {
  /** Called once before the first `pollNext` (connections, first fetch). */
  start?(): void | Promise<void>;
  /** Emits what is ready (few records, typically one) and says whether more is. */
  pollNext(output: ReaderOutput<T>): InputStatus;
  /** Resolves when pollNext may have records again after NOTHING_AVAILABLE. */
  isAvailable(): Promise<void>;
  /**
   * The reader's position between two records, for checkpoint `checkpointId`: everything
   * emitted so far is before it. Must be MessagePack-serializable. A reader without it
   * cannot be restored to a position and restarts from its beginning.
   */
  snapshotState?(checkpointId: number): unknown;
  /** Releases the reader's resources when its task ends. */
  close?(): void | Promise<void>;
}

/** A source of records (Flink's FLIP-27 Source, without split enumerators: see SplitSource for those). */
export interface Source<T> {
  readonly boundedness: Boundedness;
  /** The type of the records, when the source knows it. */
  readonly producedType?: TypeInformation<T>;
  /**
   * `restoredState`: the `snapshotState` results this subtask resumes from (one per reader
   * of the checkpoint it takes over: exactly one at an unchanged parallelism), or undefined
   * for a fresh start.
   */
  createReader(context: ConnectorContext, restoredState?: readonly unknown[]): SourceReader<T>;
}

/**
 * One parallel instance of a sink. `write` is called per record; it may return a promise to
 * make the task wait before the next record (backpressure for a slow sink). `flush(true)` is
 * called once at end of input, then `close`.
 */
export interface SinkWriter<T> {
  /** Writes one record; a returned promise makes the task wait before the next (back pressure). */
  write(record: T): void | Promise<void>;
  /** Flushes what is buffered: at each checkpoint (false) and once at the end of input (true). */
  flush(endOfInput: boolean): void | Promise<void>;
  /**
   * Exactly-once sinks (two-phase commit): at checkpoint `checkpointId`, after `flush(false)`,
   * hand over what that checkpoint must commit once it completes (e.g. the part files closed
   * for it), MessagePack-serializable. The runtime keeps them in the checkpoint and passes
   * them to the Committer when the checkpoint completes, or on restore from it.
   */
  prepareCommit?(checkpointId: number): unknown[] | Promise<unknown[]>;
  /** The writer's own state for checkpoint `checkpointId` (e.g. a part counter), MessagePack-serializable. */
  snapshotState?(checkpointId: number): unknown;
  /** Releases the writer's resources when its task ends. */
  close(): void | Promise<void>;
}

/** Makes prepared committables visible. Must be idempotent: a restore may commit again what was committed before a failure. */
export interface Committer<C> {
  /** Commits the committables of a completed checkpoint (or of the one restored from). */
  commit(committables: readonly C[]): void | Promise<void>;
  /** Releases what the committer keeps between commits (connections, say), once its task ends (Flink's Committer is AutoCloseable). */
  close?(): void | Promise<void>;
}

/** A sink of records (Flink's Sink V2): writers per subtask and, for exactly-once, a committer. */
export interface Sink<T> {
  /**
   * `restoredState`: the writer states this subtask resumes from. On restore the runtime
   * first commits the committables the restored checkpoint promised, then creates the writer,
   * which discards whatever else the failed attempt left behind (uncommitted part files).
   */
  createWriter(context: ConnectorContext, restoredState?: readonly unknown[]): SinkWriter<T> | Promise<SinkWriter<T>>;
  /** Present on exactly-once sinks, whose writers implement prepareCommit. */
  createCommitter?(context: ConnectorContext): Committer<unknown>;
  /**
   * Checks the sink's settings against the job's once its main returned (a KafkaSink's
   * transaction timeout against the checkpoint interval); throws a WeirError that fails the
   * submission.
   */
  validate?(job: SinkJobSettings): void;
  /**
   * What outside the cluster this sink must use alone among the cluster's running jobs: an
   * exactly-once KafkaSink's transactional id prefix, whose lingering transactions each job
   * aborts when it starts, so a second job with the same prefix would abort the first one's.
   * The JobManager refuses a submission that claims what a running job holds.
   */
  exclusiveResources?(): readonly ExclusiveResource[];
}

/** One thing a sink claims for its job alone (see Sink.exclusiveResources); two claims are the same when kind, scope and name are. */
export interface ExclusiveResource {
  /** What kind of thing it is, as a stable dotted name: 'kafka.transactional-id-prefix'. */
  readonly kind: string;
  /** Where the name is unique: the Kafka cluster's bootstrap servers, a database. */
  readonly scope: string;
  readonly name: string;
  /** For messages: "Kafka transactional.id prefix 'orders' on localhost:9092". */
  readonly description: string;
  /**
   * What stays outside the cluster once the job has ended, unless the job removed it, and how
   * to remove it (a replication slot keeps the server's WAL until dropped); `weir cancel` and
   * `weir info` print it for an ended job. Absent: nothing stays.
   */
  readonly leftBehind?: string;
}

/** What a sink's `validate` sees of the job: what it set (undefined: the cluster's defaults apply). */
export interface SinkJobSettings {
  readonly checkpointing: { readonly intervalMs: number } | undefined;
}
