import { closest } from 'fastest-levenshtein';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Expr } from './ast.ts';
import { positionOf, type TreeNode } from './tree.ts';

/** The units Flink's TIMESTAMPDIFF and TIMESTAMPADD take (its `timepointunit`). */
export const TIMESTAMP_UNITS = ['SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const;

/**
 * TIMESTAMPDIFF(unit, a, b) and TIMESTAMPADD(unit, n, ts): the grammar reads the unit as a
 * TimeIntervalUnit parameter, which no expression rule takes; it becomes a string literal (the
 * binder checks the functions' argument types), a unit Flink does not take a parse error at
 * its position with the nearest name.
 */
export function timestampUnit(param: TreeNode): Expr {
  const unit = param.getText().toUpperCase();
  const pos = positionOf(param);
  if (!(TIMESTAMP_UNITS as readonly string[]).includes(unit)) {
    throw new SqlError(SqlErrorCode.SQL_PARSE_ERROR, `'${param.getText()}' is not a unit of TIMESTAMPDIFF or TIMESTAMPADD; did you mean '${closest(unit, [...TIMESTAMP_UNITS])}'? (they take ${TIMESTAMP_UNITS.join(', ')})`, pos);
  }
  return { kind: 'literal', type: 'string', text: unit, pos };
}
