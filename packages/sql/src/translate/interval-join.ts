import { KeyedCoProcessFunction, MapStateDescriptor, Types, type Collector, type KeyedProcessContext, type MapState, type OnTimerContext } from '@weir/api';
import type { IntervalBounds, JoinType } from '../logical/nodes.ts';
import type { Row } from '../row.ts';

type Fields = readonly unknown[];
/** A side's rows by time. */
type Rows = MapState<number, Array<Fields>>;
/** An outer side's: whether each row at a time met a row of the other side (parallel to Rows). */
type Matched = MapState<number, boolean[]>;

/**
 * An event-time interval join (Flink's RowTimeIntervalJoin): a left row at `lt` meets the
 * right rows at `rt` with `rt + lower <= lt <= rt + upper` and the residual predicate. Each
 * side's rows wait in keyed map state (time -> rows) for as long as a row of the other side
 * that is not late could still meet them: a left row until the watermark passes `lt - lower`,
 * a right row until it passes `rt + upper`; an event-time timer then drops them. Insert-only.
 *
 * Outer (Flink's TimeIntervalJoin with padding): an outer side also remembers which of its rows
 * met a row; when one that met none is dropped, it goes out null-padded, once. A row of an
 * outer side that can meet nothing more when it arrives (late, or a NULL time or key) goes out
 * padded at once if it met nothing.
 */
export class IntervalJoinFunction extends KeyedCoProcessFunction<string, Row, Row, Row> {
  #left!: Rows;
  #right!: Rows;
  #leftMatched: Matched | undefined;
  #rightMatched: Matched | undefined;

  constructor(
    private readonly bounds: IntervalBounds,
    private readonly keys: readonly [readonly number[], readonly number[]],
    private readonly residual: ((joined: Fields) => unknown) | undefined,
    private readonly joinType: JoinType = 'INNER',
    /** Each side's row width, for the null padding of an outer join. */
    private readonly widths: readonly [number, number] = [0, 0],
  ) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    const rows = (name: string) => ctx.getMapState(new MapStateDescriptor<number, Array<Fields>>(name, Types.NUMBER, Types.GENERIC<Array<Fields>>()));
    const matched = (name: string) => ctx.getMapState(new MapStateDescriptor<number, boolean[]>(name, Types.NUMBER, Types.GENERIC<boolean[]>()));
    this.#left = rows('left-rows');
    this.#right = rows('right-rows');
    // Only an outer side keeps flags, so an inner join's state is what it was before outer joins.
    if (this.joinType === 'LEFT' || this.joinType === 'FULL') this.#leftMatched = matched('left-matched');
    if (this.joinType === 'RIGHT' || this.joinType === 'FULL') this.#rightMatched = matched('right-matched');
  }

  processElement1(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const lt = row.fields[this.bounds.leftTime] as number | null;
    let kept = false;
    let matched = false;
    // A row with a null time or key meets nothing.
    if (lt !== null && !this.keys[0].some((k) => row.fields[k] === null)) {
      // Right rows with rt in [lt - upper, lt - lower].
      matched = this.#join(row.fields, this.#right, this.#rightMatched, lt - this.bounds.upper, lt - this.bounds.lower, true, out);
      kept = this.#keep(this.#left, this.#leftMatched, lt, row.fields, matched, lt - this.bounds.lower, ctx);
    }
    if (!kept && !matched && this.#leftMatched !== undefined) out.collect(this.#padRight(row.fields));
  }

  processElement2(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const rt = row.fields[this.bounds.rightTime] as number | null;
    let kept = false;
    let matched = false;
    if (rt !== null && !this.keys[1].some((k) => row.fields[k] === null)) {
      matched = this.#join(row.fields, this.#left, this.#leftMatched, rt + this.bounds.lower, rt + this.bounds.upper, false, out);
      kept = this.#keep(this.#right, this.#rightMatched, rt, row.fields, matched, rt + this.bounds.upper, ctx);
    }
    if (!kept && !matched && this.#rightMatched !== undefined) out.collect(this.#padLeft(row.fields));
  }

  /** Emits the joins of `fields` with the other side's rows timed in [from, to]; marks the other side's rows it met when that side is outer. */
  #join(fields: Fields, other: Rows, otherMatched: Matched | undefined, from: number, to: number, isLeft: boolean, out: Collector<Row>): boolean {
    let any = false;
    for (const [time, rows] of other.entries()) {
      if (time < from || time > to) continue;
      const flags = otherMatched?.get(time);
      let marked = false;
      rows.forEach((o, i) => {
        const joined = isLeft ? [...fields, ...o] : [...o, ...fields];
        if (this.residual !== undefined && this.residual(joined) !== true) return;
        out.collect({ kind: '+I', fields: joined });
        any = true;
        if (flags !== undefined && !flags[i]) marked = flags[i] = true;
      });
      if (marked) otherMatched!.put(time, flags!);
    }
    return any;
  }

  /** Stores the row while a future row of the other side may still meet it; a late one (expired already) is not kept. */
  #keep(state: Rows, matchedState: Matched | undefined, time: number, fields: Fields, matched: boolean, expiresAt: number, ctx: KeyedProcessContext<string>): boolean {
    if (expiresAt <= ctx.timerService().currentWatermark()) return false;
    state.put(time, [...(state.get(time) ?? []), fields]);
    matchedState?.put(time, [...(matchedState.get(time) ?? []), matched]);
    ctx.timerService().registerEventTimeTimer(expiresAt);
    return true;
  }

  override onTimer(timestamp: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    for (const time of [...this.#left.keys()]) if (time - this.bounds.lower <= timestamp) this.#expire(this.#left, this.#leftMatched, time, (f) => this.#padRight(f), out);
    for (const time of [...this.#right.keys()]) if (time + this.bounds.upper <= timestamp) this.#expire(this.#right, this.#rightMatched, time, (f) => this.#padLeft(f), out);
  }

  #expire(state: Rows, matchedState: Matched | undefined, time: number, pad: (fields: Fields) => Row, out: Collector<Row>): void {
    if (matchedState !== undefined) {
      const flags = matchedState.get(time) ?? [];
      (state.get(time) ?? []).forEach((fields, i) => {
        if (!flags[i]) out.collect(pad(fields));
      });
      matchedState.remove(time);
    }
    state.remove(time);
  }

  #padRight(fields: Fields): Row {
    return { kind: '+I', fields: [...fields, ...new Array<null>(this.widths[1]).fill(null)] };
  }

  #padLeft(fields: Fields): Row {
    return { kind: '+I', fields: [...new Array<null>(this.widths[0]).fill(null), ...fields] };
  }
}
