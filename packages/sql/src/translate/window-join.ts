import { KeyedCoProcessFunction, ListStateDescriptor, Types, type Collector, type KeyedProcessContext, type ListState, type OnTimerContext } from '@weir/api';
import type { JoinType } from '../logical/nodes.ts';
import type { Row } from '../row.ts';

type Fields = readonly unknown[];

/**
 * A window join (Flink's WindowJoinOperator): keyed by the equal keys, which hold both
 * window_start and window_end, so a key is one window's partition of each side. Each side's
 * rows wait in keyed list state until the watermark passes the window's end (an event-time
 * timer at window_end - 1, when Flink's window fires); then the pairs that match the residual
 * go out as +I, and for an outer join each row of an outer side that met nothing goes out
 * null-padded, once; the state is cleared. A row whose window has already fired is late and
 * dropped, as Flink's window operators drop it. Keys are equal within a partition, but a NULL
 * key equals nothing (SQL's `=`), so a row with one meets no row.
 */
export class WindowJoinFunction extends KeyedCoProcessFunction<string, Row, Row, Row> {
  #left!: ListState<Fields>;
  #right!: ListState<Fields>;

  constructor(
    private readonly joinType: JoinType,
    private readonly keys: readonly [readonly number[], readonly number[]],
    private readonly widths: readonly [number, number],
    /** Where window_end is in the left's rows and in the right's. */
    private readonly windowEnds: readonly [number, number],
    private readonly residual: ((joined: Fields) => unknown) | undefined,
  ) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.#left = ctx.getListState(new ListStateDescriptor<Fields>('window-join-left', Types.GENERIC<Fields>()));
    this.#right = ctx.getListState(new ListStateDescriptor<Fields>('window-join-right', Types.GENERIC<Fields>()));
  }

  processElement1(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    this.#keep(this.#left, row.fields, this.windowEnds[0], ctx);
  }

  processElement2(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    this.#keep(this.#right, row.fields, this.windowEnds[1], ctx);
  }

  #keep(state: ListState<Fields>, fields: Fields, windowEnd: number, ctx: KeyedProcessContext<string>): void {
    const fireAt = (fields[windowEnd] as number) - 1;
    if (fireAt <= ctx.timerService().currentWatermark()) return;
    state.add(fields);
    ctx.timerService().registerEventTimeTimer(fireAt);
  }

  override onTimer(_timestamp: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const left = [...this.#left.get()];
    const right = [...this.#right.get()];
    this.#left.clear();
    this.#right.clear();
    const rightMatched = new Array<boolean>(right.length).fill(false);
    const [leftWidth, rightWidth] = this.widths;
    for (const l of left) {
      let matched = false;
      if (!this.#nullKey(l, 0)) {
        right.forEach((r, i) => {
          if (this.#nullKey(r, 1)) return;
          const joined = [...l, ...r];
          if (this.residual !== undefined && this.residual(joined) !== true) return;
          matched = rightMatched[i] = true;
          out.collect({ kind: '+I', fields: joined });
        });
      }
      if (!matched && (this.joinType === 'LEFT' || this.joinType === 'FULL')) out.collect({ kind: '+I', fields: [...l, ...new Array<null>(rightWidth).fill(null)] });
    }
    if (this.joinType !== 'RIGHT' && this.joinType !== 'FULL') return;
    right.forEach((r, i) => {
      if (!rightMatched[i]) out.collect({ kind: '+I', fields: [...new Array<null>(leftWidth).fill(null), ...r] });
    });
  }

  #nullKey(fields: Fields, side: 0 | 1): boolean {
    return this.keys[side].some((k) => fields[k] === null);
  }
}
