import { WeirError, type KeyedProcessFunction, type KeySelector, type OperatorSpec, type OutputTag, type StateDescriptor } from '@weir/api';
import { OperatorHarness } from '@weir/runtime/operator-harness';
import { TestingErrorCode } from '../errors.ts';

/** A record the operator emitted, with the timestamp it carried (undefined: none). */
export interface StreamRecord<T> {
  readonly value: T;
  readonly timestamp: number | undefined;
}

/** What the harness held at `snapshot()`: restore it into a new harness with `restore`. */
export interface HarnessSnapshot {
  /** @internal The heap backend's states: name, description and entries per key group. */
  readonly states: readonly { readonly name: string; readonly meta: unknown; readonly groups: readonly (readonly unknown[])[] }[];
  readonly processingTime: number;
}

interface HarnessSetup {
  readonly spec: OperatorSpec;
  readonly startTime: number;
}

/** Processing time the harness starts at unless told otherwise. */
const DEFAULT_START_MS = 0;

/**
 * One keyed operator outside a cluster, as Flink's KeyedOneInputStreamOperatorTestHarness:
 * the runtime's own operator classes with heap keyed state and a processing-time clock the
 * test moves. Push records (`processElement`) and watermarks, move processing time, read the
 * main output and side outputs, inspect keyed state per key, snapshot and restore. Built with
 * `forKeyedProcessFunction` (Flink's ProcessFunctionTestHarnesses.forKeyedProcessFunction).
 * Unlike Flink there is no operator instance to hand in: Weir's operators are made from the
 * function by the runtime, as in a task.
 */
export class KeyedOneInputStreamOperatorTestHarness<K, IN, OUT> {
  #inner: OperatorHarness;
  #opened = false;

  private constructor(
    private readonly setup: HarnessSetup,
    restored?: HarnessSnapshot,
  ) {
    const start = restored?.processingTime ?? setup.startTime;
    this.#inner = new OperatorHarness(setup.spec, { start, keyed: true, restored: restored !== undefined });
    if (restored !== undefined) restoreHeap(this.#inner, restored);
  }

  /** A harness for a KeyedProcessFunction keyed by `key`; `startTime` is the initial processing time (ms). */
  static forKeyedProcessFunction<K, IN, OUT>(
    fn: KeyedProcessFunction<K, IN, OUT>,
    key: KeySelector<IN, K>,
    options: { readonly startTime?: number } = {},
  ): KeyedOneInputStreamOperatorTestHarness<K, IN, OUT> {
    const spec = { kind: 'keyedProcess', fn, key } as unknown as OperatorSpec;
    return new KeyedOneInputStreamOperatorTestHarness({ spec, startTime: options.startTime ?? DEFAULT_START_MS });
  }

  /** A new harness for the same function with the state of `snapshot` (Flink's initializeState(snapshot) then open()). */
  static restore<K, IN, OUT>(like: KeyedOneInputStreamOperatorTestHarness<K, IN, OUT>, snapshot: HarnessSnapshot): KeyedOneInputStreamOperatorTestHarness<K, IN, OUT> {
    return new KeyedOneInputStreamOperatorTestHarness(like.setup, snapshot);
  }

  /** Opens the function (its open(), state registration); the first processElement opens it too. */
  async open(): Promise<void> {
    if (this.#opened) return;
    this.#opened = true;
    await this.#inner.open();
  }

  /** One record, with event time `timestamp` (undefined: none); resolves once the timers it made due fired. */
  async processElement(value: IN, timestamp?: number): Promise<void> {
    await this.open();
    this.#inner.element(value, timestamp);
    await this.#inner.settled();
  }

  /** A watermark: fires the event-time timers it makes due. */
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
   * The value state, list state contents or map state entries of `descriptor` for `key`
   * (undefined when the key has none): what the function would read with that key current.
   */
  getKeyedState<T>(key: K, descriptor: StateDescriptor<T>): unknown {
    const backend = this.#inner.backend!;
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

  /** Keyed state entries per state name, empty ones left out (Flink's numKeyedStateEntries, by name): what cleanup left behind. */
  numKeyedStateEntries(): Record<string, number> {
    return this.#inner.stateEntries();
  }

  /** The operator's keyed state and timers now; restore with `KeyedOneInputStreamOperatorTestHarness.restore(harness, snapshot)`. */
  async snapshot(): Promise<HarnessSnapshot> {
    await this.open();
    // The heap backend's synchronous snapshot: copy-on-write views of its key groups.
    const captured = (this.#inner.backend as unknown as { snapshot(): { states: { name: string; meta: unknown; groups: readonly (Iterable<unknown> | undefined)[] }[] } }).snapshot();
    const states = captured.states.map(({ name, meta, groups }) => ({
      name,
      meta,
      // Copies: the harness may go on changing the state after its snapshot.
      groups: groups.map((group) => (group === undefined ? [] : structuredClone([...group].flat()))),
    }));
    return { states, processingTime: this.#inner.clock.now() };
  }

  /** Closes the function (its close()). */
  async close(): Promise<void> {
    if (this.#opened) await this.#inner.operator.close();
  }
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
