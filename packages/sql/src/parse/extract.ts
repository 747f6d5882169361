import { closest } from 'fastest-levenshtein';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Expr } from './ast.ts';
import { child, identifierPath, positionOf, ruleChildren, type TreeNode } from './tree.ts';

/**
 * The time units `EXTRACT(unit FROM ..)` takes: Flink's (Calcite's TimeUnit), each marked by
 * whether it reads the date (so it applies to a DATE too) or the time of day (TIMESTAMP only).
 */
export const TIME_UNITS: Readonly<Record<string, 'date' | 'time'>> = {
  MILLENNIUM: 'date',
  CENTURY: 'date',
  DECADE: 'date',
  YEAR: 'date',
  ISOYEAR: 'date',
  QUARTER: 'date',
  MONTH: 'date',
  WEEK: 'date',
  DAY: 'date',
  DOW: 'date',
  ISODOW: 'date',
  DOY: 'date',
  EPOCH: 'date',
  HOUR: 'time',
  MINUTE: 'time',
  SECOND: 'time',
  MILLISECOND: 'time',
  MICROSECOND: 'time',
  NANOSECOND: 'time',
};

/** Flink's DAYOFWEEK(d) and DAYOFYEAR(d) are EXTRACT(DOW FROM d) and EXTRACT(DOY FROM d); their names are taken as those units. */
const ALIASES: Readonly<Record<string, string>> = { DAYOFWEEK: 'DOW', DAYOFYEAR: 'DOY' };

/**
 * `EXTRACT(unit FROM expr)` (the grammar's Extract; flink-sql.ts lets a keyword stand as its
 * unit) as the call `EXTRACT('<UNIT>', expr)`, the unit upper-case and Flink's name. An unknown
 * unit is a SQL_PARSE_ERROR at the unit, as Flink's parser reports it, with the nearest name.
 */
export function convertExtract(node: TreeNode, convert: (node: TreeNode) => Expr): Expr {
  const unitNode = child(node, 'Identifier') ?? ruleChildren(node)[0]!;
  const [source] = ruleChildren(node).filter((r) => r !== unitNode);
  const written = identifierPath(unitNode).join('.').toUpperCase();
  const unit = ALIASES[written] ?? written;
  const unitPos = positionOf(unitNode);
  if (TIME_UNITS[unit] === undefined) {
    const names = [...Object.keys(TIME_UNITS), ...Object.keys(ALIASES)];
    throw new SqlError(SqlErrorCode.SQL_PARSE_ERROR, `'${written}' is not a time unit of EXTRACT; did you mean '${closest(written, names)}'? (${names.join(', ')})`, unitPos);
  }
  return { kind: 'call', name: 'EXTRACT', args: [{ kind: 'literal', type: 'string', text: unit, pos: unitPos }, convert(source!)], pos: positionOf(node) };
}
