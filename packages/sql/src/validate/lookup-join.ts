import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Expr, FromItem } from '../parse/ast.ts';
import { and, conjuncts } from '../logical/join-condition.ts';
import type { LogicalNode } from '../logical/nodes.ts';
import { inputsOf, type Field, type Rex } from '../logical/rex.ts';
import type { Catalog } from './catalog.ts';
import { bindExpr } from './expressions.ts';
import { bindFrom, Scope } from './from.ts';
import { fieldsOf } from './query.ts';
import { typeToString, withNullability, withoutRowtime } from './types.ts';

type LookupTable = Extract<FromItem, { kind: 'table' }> & { readonly asOf: Expr };

/** Whether a join's right side is `t FOR SYSTEM_TIME AS OF ..`. */
export function isLookup(right: FromItem): right is LookupTable {
  return right.kind === 'table' && right.asOf !== undefined;
}

const unsupported = (message: string, pos: Expr['pos']): SqlError => new SqlError(SqlErrorCode.SQL_UNSUPPORTED, message, pos);

/**
 * `left [LEFT] JOIN t FOR SYSTEM_TIME AS OF left.proctime AS s ON f(left) = s.k` as Flink's
 * processing-time lookup join: each left row looks its key up in the table `t` as it is when
 * the row arrives. Only a filesystem table can be looked up (it is read whole by each subtask,
 * translate/lookup-join.ts). The ON must equate at least one of the table's columns with an
 * expression of the left side; the rest of it is a residual predicate over the joined row. An
 * `AS OF` an event-time attribute (Flink's temporal join), a RIGHT or FULL join and a lookup
 * without an equality are refused (SQL_UNSUPPORTED).
 */
export function bindLookupJoin(from: Extract<FromItem, { kind: 'join' }>, right: LookupTable, catalog: Catalog, pending: Expr[]): { node: LogicalNode; scope: Scope } {
  if (from.joinType !== 'INNER' && from.joinType !== 'LEFT') throw unsupported(`a ${from.joinType} lookup join (FOR SYSTEM_TIME AS OF) is not supported: a lookup join is INNER or LEFT, as Flink's`, from.pos);
  const left = bindFrom(from.left, catalog, pending);
  const entry = catalog.get(right.name, right.pos);
  if (entry.kind === 'table' && entry.options['connector'] === undefined && entry.options['connector.type'] !== undefined) {
    throw unsupported(`Table '${right.name}' is declared with Flink's legacy 'connector.type' options, which Weir's SQL does not read: declare it with 'connector' = 'filesystem', 'path' and 'format'`, right.pos);
  }
  if (entry.kind !== 'table' || entry.options['connector'] !== 'filesystem') {
    throw unsupported(`Table '${right.name}' cannot be looked up (FOR SYSTEM_TIME AS OF): Weir's SQL supports a lookup join against a 'filesystem' table only`, right.pos);
  }
  if (entry.partitionKeys !== undefined) throw unsupported(`Table '${right.name}': a lookup join against a partitioned filesystem table (PARTITIONED BY) is not supported`, right.pos);
  if (entry.columns.some((c) => c.physicalIndex === undefined)) throw unsupported(`Table '${right.name}': a lookup join against a table with computed or metadata columns is not supported`, right.pos);
  const asOf = bindExpr(right.asOf, { column: (c) => left.scope.resolve(c), functions: catalog });
  if (asOf.type.proctime !== true) {
    const what = asOf.type.rowtime === true ? 'an event-time attribute (an event-time temporal join)' : `${typeToString(asOf.type)}, not a processing-time attribute`;
    throw unsupported(`FOR SYSTEM_TIME AS OF ${what} is not supported by Weir's SQL: only a processing-time lookup join (AS OF the left side's PROCTIME() column) is`, right.asOf.pos);
  }
  if (from.condition === undefined) throw unsupported('a lookup join (FOR SYSTEM_TIME AS OF) needs JOIN .. ON', from.pos);
  const tableFields: Field[] = entry.columns.map((c) => ({ name: c.name, type: c.type }));
  const leftCount = left.node.fields.length;
  const scope = new Scope([...left.scope.fields, ...tableFields.map((f) => ({ ...f, qualifier: right.alias ?? right.name }))]);
  const condition = bindExpr(from.condition, { column: (c) => scope.resolve(c), functions: catalog });
  if (condition.type.root !== 'BOOLEAN') throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `a join condition must be BOOLEAN, got ${typeToString(condition.type)}`, from.condition.pos);
  const leftKeys: Rex[] = [];
  const rightKeys: number[] = [];
  const rest: Rex[] = [];
  const leftOnly = (rex: Rex): boolean => [...inputsOf(rex)].every((i) => i < leftCount);
  for (const part of conjuncts(condition)) {
    if (part.kind === 'call' && part.op === '=' && part.operands.length === 2) {
      const [a, b] = part.operands as [Rex, Rex];
      const [probe, column] = a.kind === 'input' && a.index >= leftCount ? [b, a] : [a, b];
      if (column.kind === 'input' && column.index >= leftCount && leftOnly(probe)) {
        leftKeys.push(probe);
        rightKeys.push(column.index - leftCount);
        continue;
      }
    }
    rest.push(part);
  }
  if (leftKeys.length === 0) {
    throw unsupported(`a lookup join needs an equality between a column of '${right.name}' and an expression of the other side (ON f(a) = s.k); Flink's "Temporal table join requires an equality condition on fields of table"`, from.condition.pos);
  }
  // The left keeps its time attributes (a lookup join keeps the row order); the table's columns are nullable in a LEFT join.
  const sides = [...left.node.fields, ...tableFields.map((f) => ({ name: f.name, type: withNullability(withoutRowtime(f.type), f.type.nullable || from.joinType === 'LEFT') }))];
  const fields = fieldsOf(sides.map((f) => f.name), sides.map((f) => ({ kind: 'literal', value: null, type: f.type })));
  const residual = and(rest);
  const node: LogicalNode = { kind: 'lookupJoin', joinType: from.joinType, input: left.node, table: entry, condition, leftKeys, rightKeys, ...(residual ? { residual } : {}), fields };
  return { node, scope: new Scope(scope.fields.map((f, i) => ({ ...f, type: fields[i]!.type }))) };
}
