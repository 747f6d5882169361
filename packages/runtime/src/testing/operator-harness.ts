import type { OperatorSpec } from '@weir/api';
import { keyGroupRangeForSubtask, type ReaderEvent } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import type { ChainOperator } from '../operators/chain-operator.ts';
import { createOperator } from '../operators/create-operator.ts';
import { FailureWrapper } from '../operators/operator-failure.ts';
import type { Output } from '../operators/output.ts';
import { PendingWork } from '../operators/pending-work.ts';
import { HeapKeyedStateBackend } from '../state/heap-keyed-state-backend.ts';
import { KeyContext } from '../state/key-context.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import { OperatorStateStore, type ListMode } from '../state/operator-state-store.ts';
import { OperatorRuntimeContext } from '../task/runtime-context.ts';
import { OperatorMetrics } from '../metrics/operator-metric-group.ts';
import { ProcessingTimeService } from '../time/processing-time-service.ts';
import { RecordTimestamp } from '../time/record-timestamp.ts';

/** One list of operator state, copied (`OperatorHarness.operatorState`). */
export interface OperatorListCopy {
  readonly name: string;
  readonly mode: ListMode;
  readonly entries: readonly unknown[];
}

/** What an operator under test emitted, in order. */
export type Emitted =
  | { readonly kind: 'record'; readonly value: unknown; readonly timestamp: number | undefined }
  | { readonly kind: 'side'; readonly tag: string; readonly value: unknown; readonly timestamp: number | undefined }
  | { readonly kind: 'watermark'; readonly timestamp: number }
  | { readonly kind: 'idle' | 'active' };

/**
 * One operator outside a task, for unit tests (Flink's OneInputStreamOperatorTestHarness):
 * heap keyed state, a ManualClock for processing time, mail run when the test advances the
 * clock. Push records with timestamps and watermarks, read what came out.
 */
export class OperatorHarness {
  readonly clock: ManualClock;
  readonly timestamp = new RecordTimestamp();
  readonly backend: KeyedStateBackend | undefined;
  readonly emitted: Emitted[] = [];
  readonly operator: ChainOperator;
  /** The operator's metric group: what its function registered (`metrics.sample(now)`). */
  readonly metrics = new OperatorMetrics({ jobId: 'job', jobName: 'job', taskName: 'Op', subtaskIndex: 0, attempt: 0, operatorId: 'op', operatorName: 'Op' });
  /** The operator's pending work: timers a watermark made due beyond one slice fire here. */
  readonly work = new PendingWork();
  /** The operator's operator state: what a snapshot leaves in it, or a restore put there before open. */
  readonly lists: OperatorStateStore;
  readonly #mail: (() => void)[] = [];

  constructor(
    spec: OperatorSpec,
    options: {
      start?: number;
      autoWatermarkIntervalMs?: number;
      keyed?: boolean;
      /** Keyed state of another backend (LevelDB); heap state by default. */
      backend?: (clock: ManualClock) => KeyedStateBackend;
      /** The backend holds restored state: the operator restores what it keeps in memory (timers) on open. */
      restored?: boolean;
      /** Operator state to start with (a restore's): `restored` should be true with it. */
      lists?: OperatorStateStore;
      /** The same as plain lists (what `operatorState()` returned), for callers outside this package. */
      restoredLists?: readonly OperatorListCopy[];
      /** Where the operator's events to the JobManager go (a collect sink's rows); without it, one fails the test. */
      onOperatorEvent?: (event: ReaderEvent) => void;
    } = {},
  ) {
    this.clock = new ManualClock(options.start ?? 0);
    const label = 'Op (1/1)';
    const maxParallelism = 128;
    const heap = () => new HeapKeyedStateBackend(new KeyContext(maxParallelism, keyGroupRangeForSubtask(maxParallelism, 1, 0), label), label, this.clock);
    this.backend = options.keyed === false ? undefined : (options.backend?.(this.clock) ?? heap());
    const slot = this.timestamp;
    const emitted = this.emitted;
    const output: Output = {
      collect: (value) => void emitted.push({ kind: 'record', value, timestamp: slot.value }),
      collectSide: (tag, value) => void emitted.push({ kind: 'side', tag, value, timestamp: slot.value }),
      emitWatermark: (timestamp) => void emitted.push({ kind: 'watermark', timestamp }),
      emitWatermarkStatus: (idle) => void emitted.push({ kind: idle ? 'idle' : 'active' }),
    };
    this.lists = options.lists ?? new OperatorStateStore(label);
    for (const { name, mode, entries } of options.restoredLists ?? []) this.lists.restore(name, mode, structuredClone(entries));
    const subtask = { jobId: 'job', taskName: 'Op', subtaskIndex: 0, parallelism: 1, maxParallelism, attempt: 0 };
    this.operator = createOperator(spec, output, {
      operatorId: 'op',
      label,
      subtaskIndex: 0,
      failures: new FailureWrapper(label),
      runtimeContext: new OperatorRuntimeContext(subtask, 'Op', this.backend, this.metrics.group),
      keyed: this.backend,
      lists: this.lists,
      restored: options.restored ?? false,
      checkpointing: false,
      connector: { jobId: 'job', subtaskIndex: 0, parallelism: 1, attemptNumber: 0 },
      sendOperatorEvent:
        options.onOperatorEvent ??
        ((event) => {
          throw new Error(`the operator harness runs no split enumerator (a reader sent ${event.kind})`);
        }),
      work: this.work,
      timestamp: slot,
      processingTime: new ProcessingTimeService(this.clock, (action) => this.#mail.push(action)),
      autoWatermarkIntervalMs: options.autoWatermarkIntervalMs ?? 0,
      mail: (action) => this.#mail.push(action),
      clock: this.clock,
    });
  }

  async open(): Promise<void> {
    await this.backend?.open();
    await this.operator.open();
  }

  /** A record with event time `timestamp` (undefined: none). */
  element(value: unknown, timestamp?: number): void {
    this.timestamp.value = timestamp;
    this.operator.inputs[0]!.collect(value);
  }

  /** A record on input `index` of a two-input operator (1: a connected or broadcast stream). */
  elementOn(index: number, value: unknown, timestamp?: number): void {
    this.timestamp.value = timestamp;
    this.operator.inputs[index]!.collect(value);
  }

  /** The synchronous part of checkpoint `checkpointId`, then a copy of the operator state, as a restore would get it. */
  async snapshot(checkpointId = 1): Promise<OperatorStateStore> {
    await this.operator.snapshotState(checkpointId, checkpointId);
    const copy = new OperatorStateStore('Op (1/1)');
    for (const [name, { mode, entries }] of this.lists.snapshot()) copy.restore(name, mode, structuredClone(entries));
    return copy;
  }

  /** The synchronous part of checkpoint `checkpointId`, then copies of the operator state's lists as plain data. */
  async operatorState(checkpointId = 1): Promise<OperatorListCopy[]> {
    await this.operator.snapshotState(checkpointId, checkpointId);
    return [...this.lists.snapshot()].map(([name, { mode, entries }]) => ({ name, mode, entries: structuredClone(entries) }));
  }

  watermark(timestamp: number): void {
    this.operator.processWatermark(timestamp);
  }

  /** Resolves when the pending work is done: every timer the last watermarks made due fired, as a task would wait before its next record. */
  settled(): Promise<void> {
    return this.work.drain();
  }

  /** Moves processing time on and runs the timers (mail) due by then. */
  advance(ms: number): void {
    this.clock.advance(ms);
    while (this.#mail.length !== 0) this.#mail.shift()!();
  }

  /** The records emitted so far (main output), and forgets them. */
  takeRecords(): unknown[] {
    const records = this.emitted.filter((e) => e.kind === 'record').map((e) => (e as { value: unknown }).value);
    this.emitted.length = 0;
    return records;
  }

  /** Keyed state entries per state name of a heap backend, empty ones left out: what a window that cleaned up leaves behind. */
  stateEntries(): Record<string, number> {
    const backend = this.backend;
    if (!(backend instanceof HeapKeyedStateBackend)) throw new Error('stateEntries() counts heap state');
    return Object.fromEntries(Object.entries(backend.entryCounts()).filter(([, n]) => n !== 0));
  }
}
