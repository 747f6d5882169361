import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Expr } from '../parse/ast.ts';
import type { LogicalNode, SortKey } from '../logical/nodes.ts';
import type { Rex } from '../logical/rex.ts';
import { bindExpr, type BindContext } from './expressions.ts';
import { T, withNullability } from './types.ts';

export function isOver(expr: Expr): expr is Extract<Expr, { kind: 'over' }> {
  return expr.kind === 'over';
}

function columnOf(expr: Expr, ctx: BindContext, what: string): number {
  const rex: Rex = bindExpr(expr, ctx);
  if (rex.kind !== 'input') throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${what} by an expression is not supported by Weir's SQL yet: compute it as a column in a subquery and ${what} it`, expr.pos);
  return rex.index;
}

/**
 * `ROW_NUMBER() OVER (PARTITION BY .. ORDER BY ..)` as a Rank over `input` (Flink's
 * LogicalOverAggregate turned FlinkLogicalRank): the partition and order columns, the row
 * number as one more BIGINT field. Its N comes from a filter on the row number above it
 * (logical/rewrites.ts).
 */
export function bindRank(input: LogicalNode, overs: ReadonlyArray<Extract<Expr, { kind: 'over' }>>, ctx: BindContext): LogicalNode {
  const over = overs[0]!;
  if (overs.length > 1) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, 'more than one OVER window in a select list is not supported by Weir\'s SQL yet', overs[1]!.pos);
  if (over.call.name === 'RANK' || over.call.name === 'DENSE_RANK') {
    // Flink's StreamExecRank refuses them in these words; ROW_NUMBER is what its Top-N numbers rows with.
    throw new SqlError(
      SqlErrorCode.SQL_UNSUPPORTED,
      `${over.call.name}() on streaming table is not supported currently: number the rows with ROW_NUMBER() for Top-N (rows that tie get consecutive numbers, in arrival order)`,
      over.pos,
    );
  }
  if (over.call.name !== 'ROW_NUMBER') {
    throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${over.call.name}() beside ROW_NUMBER() is not supported by Weir's SQL yet`, over.pos);
  }
  if (over.orderBy.length === 0) {
    throw new SqlError(
      SqlErrorCode.SQL_INVALID_QUERY,
      'ROW_NUMBER() OVER needs an ORDER BY: Top-N and deduplication number the rows of a partition in that order, as in ROW_NUMBER() OVER (PARTITION BY k ORDER BY price DESC)',
      over.pos,
    );
  }
  if (over.frame !== undefined) throw new SqlError(SqlErrorCode.SQL_INVALID_QUERY, `ROW_NUMBER() takes no window frame (${over.frame})`, over.pos);
  const partitionKeys = over.partitionBy.map((e) => columnOf(e, ctx, 'PARTITION BY'));
  const orderKeys: SortKey[] = over.orderBy.map((o) => ({ index: columnOf(o.expr, ctx, 'ORDER BY'), desc: o.desc }));
  return { kind: 'rank', input, partitionKeys, orderKeys, pos: over.pos, fields: [...input.fields, { name: 'w0$o0', type: withNullability(T.BIGINT, false) }] };
}
