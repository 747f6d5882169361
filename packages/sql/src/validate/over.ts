import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Expr } from '../parse/ast.ts';
import type { AggCall, LogicalNode } from '../logical/nodes.ts';
import type { Field } from '../logical/rex.ts';
import { bindExpr, intervalMillis, type BindContext } from './expressions.ts';
import { AGGREGATES, inferAggregate } from './functions.ts';
import { bindRank } from './rank.ts';

type Over = Extract<Expr, { kind: 'over' }>;

function columnIndex(expr: Expr, ctx: BindContext, what: string): number {
  const rex = bindExpr(expr, ctx);
  if (rex.kind !== 'input') throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${what} of an expression is not supported by Weir's SQL yet: compute it as a column in a subquery`, expr.pos);
  return rex.index;
}

/** The frame as written (the parser's text without spaces): ROWS n PRECEDING or RANGE INTERVAL PRECEDING, up to CURRENT ROW. */
function frameOf(over: Over): { rows: boolean; preceding?: number } {
  if (over.frame === undefined) return { rows: false };
  const text = over.frame.toUpperCase();
  const rows = /^ROWSBETWEEN(\d+|UNBOUNDED)PRECEDINGANDCURRENTROW$/.exec(text);
  if (rows !== null) return rows[1] === 'UNBOUNDED' ? { rows: true } : { rows: true, preceding: Number(rows[1]) };
  const range = /^RANGEBETWEEN(?:UNBOUNDED|INTERVAL'(\d+)'([A-Z]+))PRECEDINGANDCURRENTROW$/.exec(text);
  if (range !== null) return range[1] === undefined ? { rows: false } : { rows: false, preceding: intervalMillis({ kind: 'interval', value: range[1], unit: range[2]!, pos: over.pos }) };
  throw new SqlError(
    SqlErrorCode.SQL_UNSUPPORTED,
    `the window frame ${over.frame} is not supported by Weir's SQL yet: write ROWS BETWEEN n PRECEDING AND CURRENT ROW or RANGE BETWEEN INTERVAL '..' unit PRECEDING AND CURRENT ROW (or UNBOUNDED PRECEDING)`,
    over.pos,
  );
}

const RANKING = new Set(['ROW_NUMBER', 'RANK', 'DENSE_RANK']);

/**
 * The OVER items of a select list over `input`: ROW_NUMBER() as a Rank (rank.ts), aggregates
 * as an OverAggregate (Flink's StreamPhysicalOverAggregate): every item with the same PARTITION
 * BY, ORDER BY the time attribute ascending, and frame; each aggregate one more field. Returns
 * the node and, per OVER item, the field it is.
 */
export function bindOver(input: LogicalNode, overs: readonly Over[], ctx: BindContext): { node: LogicalNode; fieldOf: (over: Over) => number } {
  // The ranking functions make a Rank; RANK and DENSE_RANK are refused there with Flink's words.
  if (overs.some((o) => RANKING.has(o.call.name))) {
    const node = bindRank(input, overs, ctx);
    return { node, fieldOf: () => node.fields.length - 1 };
  }
  const first = overs[0]!;
  const same = (a: Over, b: Over): boolean => JSON.stringify([a.partitionBy, a.orderBy, a.frame], (k, v: unknown) => (k === 'pos' ? undefined : v)) === JSON.stringify([b.partitionBy, b.orderBy, b.frame], (k, v: unknown) => (k === 'pos' ? undefined : v));
  const other = overs.find((o) => !same(o, first));
  if (other !== undefined) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, 'OVER aggregations with different windows in one select list are not supported by Weir\'s SQL yet', other.pos);
  if (first.orderBy.length !== 1 || first.orderBy[0]!.desc) {
    throw new SqlError(SqlErrorCode.SQL_INVALID_QUERY, 'An OVER aggregation must ORDER BY one time attribute, ascending, as in SUM(x) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)', first.pos);
  }
  const timeExpr = first.orderBy[0]!.expr;
  const timeIndex = columnIndex(timeExpr, ctx, 'ORDER BY');
  if (input.fields[timeIndex]!.type.rowtime !== true) {
    throw new SqlError(SqlErrorCode.SQL_NOT_A_TIME_ATTRIBUTE, `An OVER aggregation must be ordered by an event-time attribute (a column with a WATERMARK), but ${input.fields[timeIndex]!.name} is not one`, timeExpr.pos);
  }
  const partitionKeys = first.partitionBy.map((e) => columnIndex(e, ctx, 'PARTITION BY'));
  const aggs: AggCall[] = overs.map((over, i) => {
    const call = over.call;
    if (!AGGREGATES.has(call.name)) {
      throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${call.name}(..) OVER is not supported by Weir's SQL yet (ROW_NUMBER, COUNT, SUM, MIN, MAX and AVG are)`, over.pos);
    }
    if (call.distinct === true || call.args.length > 1) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${call.name}(DISTINCT ..) or of several arguments OVER is not supported by Weir's SQL yet`, call.pos);
    const arg = call.args[0] === undefined ? undefined : columnIndex(call.args[0], ctx, call.name);
    const type = inferAggregate(call.name, arg === undefined ? undefined : input.fields[arg]!.type, call.pos);
    return { fn: call.name as AggCall['fn'], ...(arg !== undefined ? { arg } : {}), distinct: false, type, name: `w0$o${i}` };
  });
  const fields: Field[] = [...input.fields, ...aggs.map((a) => ({ name: a.name, type: a.type }))];
  const node: LogicalNode = { kind: 'overAggregate', input, partitionKeys, timeIndex, ...frameOf(first), aggs, fields };
  return { node, fieldOf: (over) => input.fields.length + overs.indexOf(over) };
}
