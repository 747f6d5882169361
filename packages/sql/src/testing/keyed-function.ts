import type { Collector, KeyedCoProcessFunction, RuntimeContext } from '@weir/api';
import type { Row } from '../row.ts';
import { keyString } from '../translate/keys.ts';

/**
 * A keyed function's state and timers for unit tests of the SQL operators, one key at a time
 * (the runtime's OperatorHarness is not exported to other packages): value, list and map
 * state in plain maps, event-time timers fired by `watermark()`, and what the function emitted
 * as `+I["a",1]` strings (a bigint as `"12n"`).
 */
export class KeyedFunctionHarness {
  readonly out: string[] = [];
  readonly collector: Collector<Row> = { collect: (row: Row) => void this.out.push(`${row.kind}${keyString(row.fields)}`) } as Collector<Row>;
  readonly timers = new Set<number>();
  currentWatermark = Number.NEGATIVE_INFINITY;
  readonly #maps = new Map<string, Map<unknown, unknown>>();
  readonly #values = new Map<string, unknown>();

  readonly runtimeContext = {
    getMapState: (descriptor: { name: string }) => {
      const map = this.#maps.get(descriptor.name) ?? new Map<unknown, unknown>();
      this.#maps.set(descriptor.name, map);
      return {
        get: (k: unknown) => map.get(k),
        put: (k: unknown, v: unknown) => void map.set(k, structuredClone(v)),
        remove: (k: unknown) => void map.delete(k),
        contains: (k: unknown) => map.has(k),
        entries: () => [...map.entries()].map(([k, v]) => [k, structuredClone(v)]),
        keys: () => [...map.keys()],
        values: () => [...map.values()],
        isEmpty: () => map.size === 0,
        clear: () => map.clear(),
      };
    },
    getListState: (descriptor: { name: string }) => {
      const list = () => (this.#values.get(descriptor.name) as unknown[] | undefined) ?? [];
      return {
        get: () => structuredClone(list()),
        add: (v: unknown) => void this.#values.set(descriptor.name, [...list(), structuredClone(v)]),
        addAll: (vs: unknown[]) => void this.#values.set(descriptor.name, [...list(), ...structuredClone(vs)]),
        update: (vs: unknown[]) => void this.#values.set(descriptor.name, structuredClone(vs)),
        clear: () => void this.#values.delete(descriptor.name),
      };
    },
    getState: (descriptor: { name: string }) => ({
      value: () => structuredClone(this.#values.get(descriptor.name)),
      update: (v: unknown) => void this.#values.set(descriptor.name, structuredClone(v)),
      clear: () => void this.#values.delete(descriptor.name),
    }),
  } as unknown as RuntimeContext;

  readonly context = {
    subtaskIndex: 0,
    timestamp: () => undefined,
    getCurrentKey: () => 'key',
    timerService: () => ({
      currentProcessingTime: () => 0,
      currentWatermark: () => this.currentWatermark,
      registerEventTimeTimer: (t: number) => void this.timers.add(t),
      registerProcessingTimeTimer: () => undefined,
      deleteEventTimeTimer: (t: number) => void this.timers.delete(t),
      deleteProcessingTimeTimer: () => undefined,
    }),
    output: () => undefined,
  };

  /** Entries of a map state (how many rows a join or an interval join still keeps). */
  mapSize(name: string): number {
    return this.#maps.get(name)?.size ?? 0;
  }

  /** Elements of a list state (the rows an insert-only side of a join keeps). */
  listSize(name: string): number {
    return (this.#values.get(name) as unknown[] | undefined)?.length ?? 0;
  }

  /** Moves event time to `time`, firing the timers due (in order) through `onTimer`. */
  watermark(time: number, onTimer: (timestamp: number) => void): void {
    this.currentWatermark = time;
    for (const t of [...this.timers].sort((a, b) => a - b)) {
      if (t > time) break;
      this.timers.delete(t);
      onTimer(t);
    }
  }

  take(): string[] {
    return this.out.splice(0);
  }
}

export const row = (kind: Row['kind'], ...fields: unknown[]): Row => ({ kind, fields });

/** A keyed co-process function (a join) opened on a fresh harness: +I rows into each side, and the watermark moved with its timers fired. */
export function twoInputHarness(fn: KeyedCoProcessFunction<string, Row, Row, Row>) {
  const h = new KeyedFunctionHarness();
  fn.setRuntimeContext(h.runtimeContext);
  fn.open();
  return {
    h,
    left: (...fields: unknown[]) => fn.processElement1(row('+I', ...fields), h.context as never, h.collector),
    right: (...fields: unknown[]) => fn.processElement2(row('+I', ...fields), h.context as never, h.collector),
    watermark: (t: number) => h.watermark(t, (ts) => fn.onTimer(ts, h.context as never, h.collector)),
  };
}
