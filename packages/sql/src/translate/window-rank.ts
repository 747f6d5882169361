import { KeyedProcessFunction, Types, ValueStateDescriptor, type Collector, type KeyedProcessContext, type OnTimerContext, type ValueState } from '@weir/api';
import type { SortKey } from '../logical/nodes.ts';
import type { Row } from '../row.ts';
import { rowComparator } from './rank.ts';

/**
 * Window Top-N (Flink's WindowRankOperator): keyed by the PARTITION BY, which holds
 * window_start and window_end, so a key is one window's partition. Its N first rows in ORDER
 * BY order wait in keyed state (a row equal to one there ranks after it) until the watermark
 * passes the window's end (an event-time timer at window_end - 1, when Flink's window fires);
 * then they go out as +I rows with their row number, and the state is cleared. A row whose
 * window has already fired is late and dropped, as Flink's window operators drop it.
 */
export class WindowRankFunction extends KeyedProcessFunction<string, Row, Row> {
  #top!: ValueState<Array<readonly unknown[]>>;
  readonly #compare: (a: readonly unknown[], b: readonly unknown[]) => number;

  constructor(
    orderKeys: readonly SortKey[],
    private readonly limit: number,
    /** Where window_end is in the input rows. */
    private readonly windowEnd: number,
  ) {
    super();
    this.#compare = rowComparator(orderKeys);
  }

  override open(): void {
    this.#top = this.getRuntimeContext().getState(new ValueStateDescriptor<Array<readonly unknown[]>>('window-top-n', Types.GENERIC<Array<readonly unknown[]>>()));
  }

  processElement(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    const fireAt = (row.fields[this.windowEnd] as number) - 1;
    if (fireAt <= ctx.timerService().currentWatermark()) return;
    const before = this.#top.value() ?? [];
    let at = before.length;
    while (at > 0 && this.#compare(before[at - 1]!, row.fields) > 0) at--;
    if (at >= this.limit) return;
    if (before.length === 0) ctx.timerService().registerEventTimeTimer(fireAt);
    this.#top.update([...before.slice(0, at), row.fields, ...before.slice(at)].slice(0, this.limit));
  }

  override onTimer(_timestamp: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const top = this.#top.value() ?? [];
    top.forEach((fields, i) => out.collect({ kind: '+I', fields: [...fields, i + 1] }));
    this.#top.clear();
  }
}
