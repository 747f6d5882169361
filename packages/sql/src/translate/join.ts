import { KeyedCoProcessFunction, MapStateDescriptor, Types, type StateTtlConfig, type Collector, type KeyedProcessContext, type MapState } from '@weir/api';
import type { JoinType } from '../logical/nodes.ts';
import type { Row, RowKind } from '../row.ts';
import { keyString } from './keys.ts';

/** A distinct row of one side in state: how many times it is there, and (outer sides) how many other-side rows it matches. */
interface Stored {
  fields: readonly unknown[];
  count: number;
  matches: number;
}

/** Whether the row adds to the table (+I, +U) or takes away from it (-U, -D). */
const accumulates = (kind: RowKind): boolean => kind === '+I' || kind === '+U';

/**
 * A regular join (Flink's StreamingJoinOperator): per join key, each side's rows in keyed
 * map state (row -> count, and for an outer side its number of matches). A row of one side
 * joins the stored rows of the other that satisfy the residual predicate. An outer side's
 * row without a match is emitted null-padded (+I) and retracted (-D) when its first match
 * arrives; when its last match goes, the null-padded row comes back. Retractions (-U, -D)
 * from an updating input retract the joined rows they made. Output kinds as Flink's: an inner
 * join passes the input's kind on, an outer join emits +I and -D.
 */
export class StreamingJoinFunction extends KeyedCoProcessFunction<string, Row, Row, Row> {
  #left!: MapState<string, Stored>;
  #right!: MapState<string, Stored>;

  constructor(
    private readonly joinType: JoinType,
    private readonly keys: readonly [readonly number[], readonly number[]],
    private readonly leftWidth: number,
    private readonly rightWidth: number,
    private readonly residual: ((joined: readonly unknown[]) => unknown) | undefined,
    /** table.exec.state.ttl: a stored row not written for this long is dropped (it then never joins again), as Flink's join state retention. */
    private readonly ttl?: StateTtlConfig,
  ) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    const descriptor = (name: string) => {
      const d = new MapStateDescriptor<string, Stored>(name, Types.STRING, Types.GENERIC<Stored>());
      if (this.ttl !== undefined) d.enableTimeToLive(this.ttl);
      return d;
    };
    this.#left = ctx.getMapState(descriptor('left-records'));
    this.#right = ctx.getMapState(descriptor('right-records'));
  }

  processElement1(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.#process(row, true, out);
  }

  processElement2(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.#process(row, false, out);
  }

  #process(row: Row, isLeft: boolean, out: Collector<Row>): void {
    const [mine, other] = isLeft ? [this.#left, this.#right] : [this.#right, this.#left];
    const inputOuter = isLeft ? this.joinType === 'LEFT' || this.joinType === 'FULL' : this.joinType === 'RIGHT' || this.joinType === 'FULL';
    const otherOuter = isLeft ? this.joinType === 'RIGHT' || this.joinType === 'FULL' : this.joinType === 'LEFT' || this.joinType === 'FULL';
    const outer = this.joinType !== 'INNER';
    const joined = (o: readonly unknown[]): unknown[] => (isLeft ? [...row.fields, ...o] : [...o, ...row.fields]);
    const padded = (fields: readonly unknown[], left: boolean): unknown[] => (left ? [...fields, ...new Array<null>(this.rightWidth).fill(null)] : [...new Array<null>(this.leftWidth).fill(null), ...fields]);
    const emit = (kind: RowKind, fields: unknown[], times = 1): void => {
      for (let i = 0; i < times; i++) out.collect({ kind, fields });
    };
    if (this.keys[isLeft ? 0 : 1].some((k) => row.fields[k] === null || row.fields[k] === undefined)) {
      // SQL equality never holds for NULL: the row meets nothing, and only an outer side shows it, null-padded.
      if (inputOuter) emit(accumulates(row.kind) ? '+I' : '-D', padded(row.fields, isLeft));
      return;
    }
    const matches: Array<[string, Stored]> = [];
    for (const [key, stored] of other.entries()) {
      if (this.residual === undefined || this.residual(joined(stored.fields)) === true) matches.push([key, stored]);
    }
    const key = keyString(row.fields);
    const existing = mine.get(key);
    if (accumulates(row.kind)) {
      if (matches.length === 0 && inputOuter) emit('+I', padded(row.fields, isLeft));
      for (const [otherKey, stored] of matches) {
        if (otherOuter) {
          if (stored.matches === 0) emit('-D', padded(stored.fields, !isLeft), stored.count);
          other.put(otherKey, { ...stored, matches: stored.matches + 1 });
        }
        emit(outer ? '+I' : row.kind, joined(stored.fields), stored.count);
      }
      const matched = matches.reduce((n, [, s]) => n + s.count, 0);
      mine.put(key, { fields: row.fields, count: (existing?.count ?? 0) + 1, matches: matched });
      return;
    }
    // A retraction of a row never added (state expired, or a bug upstream) is dropped, as Flink's state views do.
    if (existing === undefined) return;
    if (existing.count <= 1) mine.remove(key);
    else mine.put(key, { ...existing, count: existing.count - 1 });
    if (matches.length === 0 && inputOuter) emit('-D', padded(row.fields, isLeft));
    for (const [otherKey, stored] of matches) {
      emit(outer ? '-D' : row.kind, joined(stored.fields), stored.count);
      if (otherOuter) {
        if (stored.matches === 1) emit('+I', padded(stored.fields, !isLeft), stored.count);
        other.put(otherKey, { ...stored, matches: stored.matches - 1 });
      }
    }
  }
}
