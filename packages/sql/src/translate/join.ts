import { KeyedCoProcessFunction, ListStateDescriptor, MapStateDescriptor, Types, type StateTtlConfig, type Collector, type KeyedProcessContext, type ListState, type MapState } from '@weir/api';
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

/** Emits a row `times` times; a function, not a closure made per row (the build names every function it makes, a defineProperty each). */
function emitRows(out: Collector<Row>, kind: RowKind, fields: unknown[], times: number): void {
  for (let i = 0; i < times; i++) out.collect({ kind, fields });
}

/** What the arriving row matches on the other side: the stored row, how many times it is there, and (map state) its state entry. */
interface Match {
  readonly fields: readonly unknown[];
  readonly count: number;
  readonly key?: string;
  readonly stored?: Stored;
}

/**
 * Which sides keep their rows as a list (insert-only input, not an outer side, no state TTL).
 * The translator gives such a join its own uid: a savepoint of the row -> count layout then
 * fails to restore into it with the operator named (or is dropped with
 * --allowNonRestoredState), rather than being silently left unread.
 */
export function appendOnlySides(joinType: JoinType, insertOnly: readonly [boolean, boolean], ttl: StateTtlConfig | undefined): [boolean, boolean] {
  const outer = [joinType === 'LEFT' || joinType === 'FULL', joinType === 'RIGHT' || joinType === 'FULL'];
  return [0, 1].map((side) => ttl === undefined && insertOnly[side]! && !outer[side]) as [boolean, boolean];
}


/**
 * A regular join (Flink's StreamingJoinOperator): per join key, each side's rows in keyed
 * map state (row -> count, and for an outer side its number of matches). A row of one side
 * joins the stored rows of the other that satisfy the residual predicate. An outer side's
 * row without a match is emitted null-padded (+I) and retracted (-D) when its first match
 * arrives; when its last match goes, the null-padded row comes back. Retractions (-U, -D)
 * from an updating input retract the joined rows they made. Output kinds as Flink's: an inner
 * join passes the input's kind on, an outer join emits +I and -D.
 *
 * A side whose input is insert-only and that is not an outer side (`appendOnly`) never sees a
 * retraction of its own rows nor counts matches: its rows are appended to list state as they
 * come, without the row -> count map and the keyString of every row that map needs (Nexmark
 * q7 stores every bid). A duplicate row is then stored twice rather than counted twice, which
 * joins the same. Not with table.exec.state.ttl, whose expiry is per stored row.
 */
export class StreamingJoinFunction extends KeyedCoProcessFunction<string, Row, Row, Row> {
  #left!: MapState<string, Stored>;
  #right!: MapState<string, Stored>;
  #leftRows: ListState<readonly unknown[]> | undefined;
  #rightRows: ListState<readonly unknown[]> | undefined;
  readonly #leftOuter: boolean;
  readonly #rightOuter: boolean;

  constructor(
    private readonly joinType: JoinType,
    private readonly keys: readonly [readonly number[], readonly number[]],
    private readonly leftWidth: number,
    private readonly rightWidth: number,
    private readonly residual: ((joined: readonly unknown[]) => unknown) | undefined,
    /** table.exec.state.ttl: a stored row not written for this long is dropped (it then never joins again), as Flink's join state retention. */
    private readonly ttl?: StateTtlConfig,
    /** Whether each side's input is insert-only (its changelog mode). */
    private readonly insertOnly: readonly [boolean, boolean] = [false, false],
  ) {
    super();
    this.#leftOuter = joinType === 'LEFT' || joinType === 'FULL';
    this.#rightOuter = joinType === 'RIGHT' || joinType === 'FULL';
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    const descriptor = (name: string) => {
      const d = new MapStateDescriptor<string, Stored>(name, Types.STRING, Types.GENERIC<Stored>());
      if (this.ttl !== undefined) d.enableTimeToLive(this.ttl);
      return d;
    };
    const [leftAppends, rightAppends] = appendOnlySides(this.joinType, this.insertOnly, this.ttl);
    const appendOnly = (isLeft: boolean): boolean => (isLeft ? leftAppends : rightAppends);
    const rows = (name: string) => ctx.getListState(new ListStateDescriptor<readonly unknown[]>(name, Types.GENERIC<readonly unknown[]>()));
    if (appendOnly(true)) this.#leftRows = rows('left-rows');
    else this.#left = ctx.getMapState(descriptor('left-records'));
    if (appendOnly(false)) this.#rightRows = rows('right-rows');
    else this.#right = ctx.getMapState(descriptor('right-records'));
  }

  processElement1(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.#process(row, true, out);
  }

  processElement2(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.#process(row, false, out);
  }

  #joined(fields: readonly unknown[], other: readonly unknown[], isLeft: boolean): unknown[] {
    return isLeft ? [...fields, ...other] : [...other, ...fields];
  }

  #padded(fields: readonly unknown[], left: boolean): unknown[] {
    return left ? [...fields, ...new Array<null>(this.rightWidth).fill(null)] : [...new Array<null>(this.leftWidth).fill(null), ...fields];
  }

  /** The other side's stored rows that `fields` matches (the residual holds), with the joined row of each. */
  #matches(fields: readonly unknown[], isLeft: boolean): Array<{ match: Match; joined: unknown[] }> {
    const found: Array<{ match: Match; joined: unknown[] }> = [];
    const rows = isLeft ? this.#rightRows : this.#leftRows;
    if (rows !== undefined) {
      for (const other of rows.get()) {
        const joined = this.#joined(fields, other, isLeft);
        if (this.residual === undefined || this.residual(joined) === true) found.push({ match: { fields: other, count: 1 }, joined });
      }
      return found;
    }
    for (const [key, stored] of (isLeft ? this.#right : this.#left).entries()) {
      const joined = this.#joined(fields, stored.fields, isLeft);
      if (this.residual === undefined || this.residual(joined) === true) found.push({ match: { fields: stored.fields, count: stored.count, key, stored }, joined });
    }
    return found;
  }

  #mine(isLeft: boolean): MapState<string, Stored> {
    return isLeft ? this.#left : this.#right;
  }

  #process(row: Row, isLeft: boolean, out: Collector<Row>): void {
    const inputOuter = isLeft ? this.#leftOuter : this.#rightOuter;
    const otherOuter = isLeft ? this.#rightOuter : this.#leftOuter;
    const outer = this.joinType !== 'INNER';
    if (this.keys[isLeft ? 0 : 1].some((k) => row.fields[k] === null || row.fields[k] === undefined)) {
      // SQL equality never holds for NULL: the row meets nothing, and only an outer side shows it, null-padded.
      if (inputOuter) emitRows(out, accumulates(row.kind) ? '+I' : '-D', this.#padded(row.fields, isLeft), 1);
      return;
    }
    const matches = this.#matches(row.fields, isLeft);
    const other = isLeft ? this.#right : this.#left;
    const appendTo = isLeft ? this.#leftRows : this.#rightRows;
    if (accumulates(row.kind)) {
      if (matches.length === 0 && inputOuter) emitRows(out, '+I', this.#padded(row.fields, isLeft), 1);
      for (const { match, joined } of matches) {
        if (otherOuter) {
          if (match.stored!.matches === 0) emitRows(out, '-D', this.#padded(match.fields, !isLeft), match.count);
          other.put(match.key!, { ...match.stored!, matches: match.stored!.matches + 1 });
        }
        emitRows(out, outer ? '+I' : row.kind, joined, match.count);
      }
      if (appendTo !== undefined) {
        appendTo.add(row.fields);
        return;
      }
      const key = keyString(row.fields);
      const count = (this.#mine(isLeft).get(key)?.count ?? 0) + 1;
      const matched = matches.reduce((n, { match }) => n + match.count, 0);
      this.#mine(isLeft).put(key, { fields: row.fields, count, matches: matched });
      return;
    }
    // An insert-only side has no retractions (its list state could not find the row).
    if (appendTo !== undefined) return;
    const mine = this.#mine(isLeft);
    const key = keyString(row.fields);
    const existing = mine.get(key);
    // A retraction of a row never added (state expired, or a bug upstream) is dropped, as Flink's state views do.
    if (existing === undefined) return;
    if (existing.count <= 1) mine.remove(key);
    else mine.put(key, { ...existing, count: existing.count - 1 });
    if (matches.length === 0 && inputOuter) emitRows(out, '-D', this.#padded(row.fields, isLeft), 1);
    for (const { match, joined } of matches) {
      emitRows(out, outer ? '-D' : row.kind, joined, match.count);
      if (otherOuter) {
        if (match.stored!.matches === 1) emitRows(out, '+I', this.#padded(match.fields, !isLeft), match.count);
        other.put(match.key!, { ...match.stored!, matches: match.stored!.matches - 1 });
      }
    }
  }
}
