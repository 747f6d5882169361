import type { ConnectorContext } from '@weir/api';
import type { Clock, ReaderEvent } from '@weir/common';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import type { OperatorStateStore } from '../state/operator-state-store.ts';
import type { OperatorRuntimeContext } from '../task/runtime-context.ts';
import type { PendingWork } from './pending-work.ts';
import type { FailureWrapper } from './operator-failure.ts';
import type { ProcessingTimeService } from '../time/processing-time-service.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';

/** What the chain builder hands every operator it creates. */
export interface OperatorContext {
  readonly operatorId: string;
  readonly label: string;
  readonly subtaskIndex: number;
  readonly failures: FailureWrapper;
  readonly runtimeContext: OperatorRuntimeContext;
  /** Set when the operator runs on a KeyedStream. */
  readonly keyed: KeyedStateBackend | undefined;
  /** Operator (non-keyed) state: CheckpointedFunction lists and the runtime's own ($source-reader, $sink-writer...). */
  readonly lists: OperatorStateStore;
  /** The task starts from a checkpoint: its state is in `keyed` and `lists` before `open`. */
  readonly restored: boolean;
  /** Checkpointing is on for the job: sinks commit on completed checkpoints, not at end of input. */
  readonly checkpointing: boolean;
  readonly connector: ConnectorContext;
  /** A split source's reader talks to its enumerator through this. */
  readonly sendOperatorEvent: (event: ReaderEvent) => void;
  /** Where a sink parks the promise of a slow write, for the task to await before the next record. */
  readonly work: PendingWork;
  /** The event-time timestamp of the record passing down the chain (shared by the task's operators). */
  readonly timestamp: RecordTimestamp;
  /** The task's processing time: timers and periodic watermarks run through it, on the task's loop. */
  readonly processingTime: ProcessingTimeService;
  /** Runs an action on the task's loop, between two records (Mailbox.put): an async operator's completions. */
  readonly mail: (action: () => void) => void;
  /** The task's clock: timers that must outlive the processing-time service's quiescing at the end of input (async timeouts). */
  readonly clock: Clock;
  /** pipeline.auto-watermark-interval of the job: how often sources and assigners emit watermarks (0: never periodically). */
  readonly autoWatermarkIntervalMs: number;
}
