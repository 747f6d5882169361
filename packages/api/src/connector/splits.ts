import type { Boundedness, ConnectorContext, ExclusiveResource, InputStatus, ReaderOutput, Source } from './types.ts';
import type { TypeInformation } from '../types/type-information.ts';

/**
 * FLIP-27 sources: a source's input is cut into splits (a Kafka partition, a file, a range of
 * generator indexes). One SplitEnumerator per source, in the JobManager (Flink's source
 * coordinator), discovers splits and assigns them to readers; each parallel SourceReader reads
 * the splits it was given and snapshots them with their current positions. Splits are plain
 * data (MessagePack-serializable) with a stable `splitId`.
 *
 * In a checkpoint the enumerator keeps what it has not assigned yet, and each reader its
 * splits (operator list state, dealt round-robin on rescale): a restore at another parallelism
 * hands every remaining split to some reader, exactly once.
 */
export interface SourceSplit {
  readonly splitId: string;
}

/** What a reader can do besides reading. */
export interface SourceReaderContext extends ConnectorContext {
  /** Asks the enumerator for a split (pull-based sources such as files); it answers with `addSplits` or `notifyNoMoreSplits`. */
  sendSplitRequest(): void;
}

/** One parallel reader of a split source (Flink's SourceReader): reads the splits its enumerator assigns. */
export interface SplitSourceReader<T, SplitT extends SourceSplit> {
  /** Called once, after the splits of a restored checkpoint were added. */
  start?(): void | Promise<void>;
  /** As `SourceReader.pollNext`: END_OF_INPUT only after `notifyNoMoreSplits` and every split is done. */
  pollNext(output: ReaderOutput<T>): InputStatus;
  /** Resolves when pollNext may have records again after NOTHING_AVAILABLE. */
  isAvailable(): Promise<void>;
  /**
   * Splits to read: restored ones before `start`, then whatever the enumerator assigns. Each
   * already has its split output (ReaderOutput), which the reader releases when the split is done.
   */
  addSplits(splits: readonly SplitT[]): void;
  /** The enumerator will assign nothing more: a bounded reader ends once its splits are done. */
  notifyNoMoreSplits(): void;
  /** The unfinished splits with their current positions (everything emitted is before them). */
  snapshotState(checkpointId: number): SplitT[];
  /** Checkpoint `checkpointId` completed (Kafka commits its offsets here). */
  notifyCheckpointComplete?(checkpointId: number): void | Promise<void>;
  /** Releases the reader's resources when its task ends. */
  close?(): void | Promise<void>;
}

/** What an enumerator can do: the JobManager side of a source. */
export interface SplitEnumeratorContext<SplitT extends SourceSplit> {
  /** The source's parallelism: readers are 0 .. currentParallelism - 1. */
  readonly currentParallelism: number;
  /** Readers that registered (their task is running) and can be assigned splits. */
  registeredReaders(): ReadonlySet<number>;
  /** Hands splits to registered readers. */
  assignSplits(assignment: ReadonlyMap<number, readonly SplitT[]>): void;
  /** Tells a reader nothing more will come (bounded sources). */
  signalNoMoreSplits(subtask: number): void;
  /**
   * Runs `callable` (I/O such as listing partitions) off the enumerator's thread and hands its
   * result or error to `handler` on it; with `periodMs` it repeats (partition discovery).
   */
  callAsync<R>(callable: () => Promise<R>, handler: (result: R | undefined, error: unknown) => void, initialDelayMs?: number, periodMs?: number): void;
}

/** Discovers splits and assigns them to readers, on the JobManager (Flink's SplitEnumerator). */
export interface SplitEnumerator<SplitT extends SourceSplit, CheckpointT> {
  /** Called once before any reader registers (start discovery here). */
  start(): void;
  /** A reader asked for a split (`sendSplitRequest`). */
  handleSplitRequest(subtask: number): void;
  /** Splits a reader had been given but whose reading is undone (its task failed before a checkpoint took them): assign them again. */
  addSplitsBack(splits: readonly SplitT[], subtask: number): void;
  /** A reader's task is running and can take splits. */
  addReader(subtask: number): void;
  /** What the enumerator must remember across a restore (unassigned splits, discovery progress); MessagePack-serializable. */
  snapshotState(checkpointId: number): CheckpointT;
  /** Checkpoint `checkpointId` completed. */
  notifyCheckpointComplete?(checkpointId: number): void;
  /** Releases what the enumerator holds when the job ends or fails over. */
  close?(): void | Promise<void>;
}

/** A source with splits (Flink's FLIP-27 `Source`). */
export interface SplitSource<T, SplitT extends SourceSplit, CheckpointT> {
  readonly boundedness: Boundedness;
  readonly producedType?: TypeInformation<T>;
  /** A reader for one subtask; restored splits come through `addSplits` before `start`. */
  createReader(context: SourceReaderContext): SplitSourceReader<T, SplitT>;
  /** The enumerator of a fresh start. */
  createEnumerator(context: SplitEnumeratorContext<SplitT>): SplitEnumerator<SplitT, CheckpointT>;
  /** The enumerator resumed from what its `snapshotState` returned. */
  restoreEnumerator(context: SplitEnumeratorContext<SplitT>, checkpoint: CheckpointT): SplitEnumerator<SplitT, CheckpointT>;
  /**
   * What outside the cluster this source must use alone among the cluster's running jobs (a
   * PostgreSQL replication slot: two jobs on one would take each other's changes); as
   * Sink.exclusiveResources.
   */
  exclusiveResources?(): readonly ExclusiveResource[];
  /**
   * Called once on the JobManager when the job has ended for good (never at a failover), after
   * its tasks ended: releases what outlives attempts (a replication slot the source was told
   * to drop when the job is cancelled). A failure is logged; the job's status stays.
   */
  jobEnded?(status: JobEndStatus): void | Promise<void>;
}

/** How a job ended, as SplitSource.jobEnded hears it. */
export type JobEndStatus = 'FINISHED' | 'CANCELED' | 'FAILED';

/** What `fromSource` takes: a split source, or a simple one whose readers assign themselves by subtask index (and cannot be rescaled). */
export type AnySource<T> = Source<T> | SplitSource<T, SourceSplit, unknown>;

/** Whether a source is a SplitSource, as opposed to a simple one that assigns itself by subtask index. */
export function isSplitSource(source: object): source is SplitSource<unknown, SourceSplit, unknown> {
  return typeof (source as Partial<SplitSource<unknown, SourceSplit, unknown>>).createEnumerator === 'function';
}
