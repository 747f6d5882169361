import { WeirError, type OperatorSpec, type OutputTag, type StateDescriptor } from '@weir/api';
import { OperatorHarness } from '@weir/runtime/operator-harness';
import { TestingErrorCode } from '../errors.ts';

/** A record the operator emitted, with the timestamp it carried (undefined: none). */
export interface StreamRecord<T> {
  readonly value: T;
  readonly timestamp: number | undefined;
}

/** What a harness held at `snapshot()`: restore it into a new harness with the harness class's `restore`. */
export interface HarnessSnapshot {
  /** @internal The heap backend's states: name, description and entries per key group (empty for a non-keyed operator). */
  readonly states: readonly { readonly name: string; readonly meta: unknown; readonly groups: readonly (readonly unknown[])[] }[];
  /** @internal The operator state's lists (a CheckpointedFunction's, a broadcast state's), copied. */
  readonly operatorState: readonly { readonly name: string; readonly mode: 'split' | 'union' | 'broadcast'; readonly entries: readonly unknown[] }[];
  /** The harness's processing time when it was taken. */
  readonly processingTime: number;
}

/** How a harness was made: enough to make another one for the same function (a restore). */
export interface HarnessSetup {
  readonly spec: OperatorSpec;
  readonly startTime: number;
  readonly keyed: boolean;
}

/** Processing time a harness starts at unless told otherwise. */
export const DEFAULT_START_MS = 0;

/**
 * What every operator test harness shares (Flink's AbstractStreamOperatorTestHarness): the
 * runtime's own operator for one function, a processing-time clock the test moves, the output
 * so far, snapshot and restore. Subclasses add the ways records go in.
 */
export abstract class AbstractStreamOperatorTestHarness<OUT> {
  // Private, so that the published declarations name no unpublished package (@weir/runtime).
  readonly #inner: OperatorHarness;
  #opened = false;

  protected constructor(
    /** @internal */
    protected readonly setup: HarnessSetup,
    restored?: HarnessSnapshot,
  ) {
    const start = restored?.processingTime ?? setup.startTime;
    this.#inner = new OperatorHarness(setup.spec, {
      start,
      keyed: setup.keyed,
      restored: restored !== undefined,
      ...(restored === undefined ? {} : { restoredLists: restored.operatorState }),
    });
    if (restored !== undefined && setup.keyed) restoreHeap(this.#inner, restored);
  }

  /** Opens the function (initializeState, open(), state registration); the first record or watermark opens it too. */
  async open(): Promise<void> {
    if (this.#opened) return;
    this.#opened = true;
    await this.#inner.open();
  }

  /** A watermark (on every input): fires the event-time timers it makes due. Flink's processWatermark / processBothWatermarks. */
  async processWatermark(timestamp: number): Promise<void> {
    await this.open();
    this.#inner.watermark(timestamp);
    await this.#inner.settled();
  }

  /** Moves processing time to `time` (ms, not backwards) and fires the processing-time timers due by then. */
  async setProcessingTime(time: number): Promise<void> {
    await this.open();
    this.#inner.advance(Math.max(0, time - this.#inner.clock.now()));
    await this.#inner.settled();
  }

  /** The harness's processing time (ms). */
  getProcessingTime(): number {
    return this.#inner.clock.now();
  }

  /** The main output's records so far, with their timestamps. */
  getRecordOutput(): StreamRecord<OUT>[] {
    return this.#inner.emitted.flatMap((e) => (e.kind === 'record' ? [{ value: e.value as OUT, timestamp: e.timestamp }] : []));
  }

  /** The main output's values so far (Flink's extractOutputValues). */
  extractOutputValues(): OUT[] {
    return this.getRecordOutput().map((r) => r.value);
  }

  /** The watermarks the operator passed on, in order. */
  getWatermarks(): number[] {
    return this.#inner.emitted.flatMap((e) => (e.kind === 'watermark' ? [e.timestamp] : []));
  }

  /** What went to side output `tag`. */
  getSideOutput<T>(tag: OutputTag<T>): StreamRecord<T>[] {
    return this.#inner.emitted.flatMap((e) => (e.kind === 'side' && e.tag === tag.id ? [{ value: e.value as T, timestamp: e.timestamp }] : []));
  }

  /** Forgets the output so far. */
  clearOutput(): void {
    this.#inner.emitted.length = 0;
  }

  /**
   * The operator's state now, as a checkpoint would take it: the function's snapshotState runs
   * (CheckpointedFunction), then keyed state, timers and operator state are copied. Restore it
   * with the harness class's static `restore(harness, snapshot)`.
   */
  async snapshot(): Promise<HarnessSnapshot> {
    await this.open();
    const operatorState = await this.#inner.operatorState();
    return { states: this.setup.keyed ? heapStates(this.#inner) : [], operatorState, processingTime: this.#inner.clock.now() };
  }

  /** Closes the function (its close()). */
  async close(): Promise<void> {
    if (this.#opened) await this.#inner.operator.close();
  }

  /** @internal Processes one record on input `index` with the function opened first. */
  protected async push(index: number, value: unknown, timestamp: number | undefined): Promise<void> {
    await this.open();
    this.#inner.elementOn(index, value, timestamp);
    await this.#inner.settled();
  }

  /** @internal Keyed state entries per state name of the heap backend, empty ones left out. */
  protected stateEntries(): Record<string, number> {
    return this.#inner.stateEntries();
  }

  /** @internal Keyed state of `descriptor` for `key`, as the function would read it with that key current. */
  protected keyedState(key: unknown, descriptor: StateDescriptor<unknown>): unknown {
    const backend = this.#inner.backend;
    if (backend === undefined) throw new WeirError(TestingErrorCode.HARNESS_MISUSE, 'this harness runs a non-keyed operator: it has no keyed state');
    backend.keys.setCurrentKey(key);
    try {
      switch (descriptor.kind) {
        case 'value':
          return backend.getState(descriptor as never).value();
        case 'list':
          return [...((backend.getListState(descriptor as never).get() as Iterable<unknown> | undefined) ?? [])];
        case 'map':
          return new Map(backend.getMapState(descriptor as never).entries() as Iterable<[unknown, unknown]>);
        case 'reducing':
          return backend.getReducingState(descriptor as never).get();
        default:
          throw new WeirError(TestingErrorCode.HARNESS_MISUSE, `getKeyedState reads value, list, map and reducing state, not ${String(descriptor.kind)}`);
      }
    } finally {
      backend.keys.clearCurrentKey();
    }
  }
}

function heapStates(inner: OperatorHarness): HarnessSnapshot['states'] {
  // The heap backend's synchronous snapshot: copy-on-write views of its key groups.
  const captured = (inner.backend as unknown as { snapshot(): { states: { name: string; meta: unknown; groups: readonly (Iterable<unknown> | undefined)[] }[] } }).snapshot();
  return captured.states.map(({ name, meta, groups }) => ({
    name,
    meta,
    // Copies: the harness may go on changing the state after its snapshot.
    groups: groups.map((group) => (group === undefined ? [] : structuredClone([...group].flat()))),
  }));
}

function restoreHeap(inner: OperatorHarness, snapshot: HarnessSnapshot): void {
  const backend = inner.backend as unknown as { tableForRestore(name: string, meta: unknown): { restoreGroup(i: number, flat: readonly unknown[], decode: (v: unknown) => unknown): void } };
  for (const { name, meta, groups } of snapshot.states) {
    const table = backend.tableForRestore(name, meta);
    groups.forEach((flat, i) => {
      if (flat.length > 0) table.restoreGroup(i, structuredClone(flat), (v) => v);
    });
  }
}
