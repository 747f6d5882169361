import {
  EventTimeSessionWindows,
  EventTimeTrigger,
  ProcessWindowFunction,
  SlidingEventTimeWindows,
  SlidingProcessingTimeWindows,
  TimeWindow,
  TumblingEventTimeWindows,
  TumblingProcessingTimeWindows,
  WindowAssigner,
  type AggregateFunction,
  type Collector,
  type ProcessWindowContext,
  type Trigger,
} from '@weir/api';
import type { WindowKey, WindowSpec } from '../logical/nodes.ts';
import type { Row } from '../row.ts';
import type { Accumulator } from './aggregates.ts';

interface WindowAcc {
  keys: unknown[] | null;
  values: unknown[];
}

/** The aggregates of a window, with the group key values of the first row (every row of a key has the same). */
export function windowAggregateFunction(keyIndexes: readonly number[], args: ReadonlyArray<number | undefined>, accumulators: readonly Accumulator[]): AggregateFunction<Row, WindowAcc, WindowAcc> {
  return {
    createAccumulator: () => ({ keys: null, values: accumulators.map((a) => a.create()) }),
    add: (row, acc) => ({
      keys: acc.keys ?? keyIndexes.map((k) => row.fields[k] ?? null),
      values: acc.values.map((v, i) => accumulators[i]!.add(v, args[i] === undefined ? 1 : (row.fields[args[i]!] ?? null))),
    }),
    getResult: (acc) => ({ keys: acc.keys, values: acc.values.map((v, i) => accumulators[i]!.result(v)) }),
    merge: (a, b) => ({ keys: a.keys ?? b.keys, values: a.values.map((v, i) => accumulators[i]!.merge(v, b.values[i])) }),
  };
}

/** Emits a fired window's row: the GROUP BY keys in their order (window_start and window_end from the window), then the aggregates. */
export class WindowRowFunction extends ProcessWindowFunction<WindowAcc, Row, string, TimeWindow> {
  constructor(private readonly keys: readonly WindowKey[]) {
    super();
  }

  process(_key: string, context: ProcessWindowContext<TimeWindow>, results: Iterable<WindowAcc>, out: Collector<Row>): void {
    const window = context.window();
    for (const result of results) {
      let field = 0;
      const keyValues = this.keys.map((k) => (k.kind === 'window_start' ? window.start : k.kind === 'window_end' ? window.end : (result.keys?.[field++] ?? null)));
      out.collect({ kind: '+I', fields: [...keyValues, ...result.values] });
    }
  }
}

/**
 * CUMULATE's windows (Flink's CumulativeWindowAssigner, not among Weir's DataStream
 * assigners): from the start of the row's max-size window, windows growing by `step` up to
 * `size`; a row belongs to every one whose end is after it.
 */
export class CumulativeEventTimeWindows extends WindowAssigner<unknown, TimeWindow> {
  constructor(
    readonly size: number,
    readonly step: number,
  ) {
    super();
  }

  assignWindows(_element: unknown, timestamp: number | undefined): TimeWindow[] {
    const ts = timestamp ?? 0;
    const start = ts - (((ts % this.size) + this.size) % this.size);
    const windows: TimeWindow[] = [];
    for (let end = start + this.step; end <= start + this.size; end += this.step) if (end > ts) windows.push(new TimeWindow(start, end));
    return windows;
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return EventTimeTrigger.create() as Trigger<unknown, TimeWindow>;
  }

  isEventTime(): boolean {
    return true;
  }

  override toString(): string {
    return `CumulativeEventTimeWindows(${this.size}, ${this.step})`;
  }
}

/** The DataStream window assigner of a window TVF or group window. */
export function windowAssignerOf(window: WindowSpec): WindowAssigner<unknown, TimeWindow> {
  // Over PROCTIME(): windows of the wall clock, fired by processing-time timers (validation allows TUMBLE and HOP only).
  if (window.proctime === true && window.fn === 'TUMBLE') return TumblingProcessingTimeWindows.of(window.size);
  if (window.proctime === true) return SlidingProcessingTimeWindows.of(window.size, window.slide!);
  if (window.fn === 'TUMBLE') return TumblingEventTimeWindows.of(window.size);
  if (window.fn === 'HOP') return SlidingEventTimeWindows.of(window.size, window.slide!);
  if (window.fn === 'SESSION') return EventTimeSessionWindows.withGap(window.gap!) as WindowAssigner<unknown, TimeWindow>;
  return new CumulativeEventTimeWindows(window.size, window.step!);
}
