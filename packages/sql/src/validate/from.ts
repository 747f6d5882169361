import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';
import type { Expr, FromItem } from '../parse/ast.ts';
import type { LogicalNode, WindowSpec } from '../logical/nodes.ts';
import { fieldAccess, type Field, type Rex } from '../logical/rex.ts';
import { suggest, type Catalog } from './catalog.ts';
import { intervalMillis } from './expressions.ts';
import { bindJoin } from './join.ts';
import { bindQuery } from './query.ts';
import { T, typeToString, withNullability } from './types.ts';

interface ScopeField extends Field {
  readonly qualifier: string | undefined;
}

/** The columns a query's FROM makes visible, with the table name or alias that qualifies them. */
export class Scope {
  constructor(readonly fields: readonly ScopeField[]) {}

  resolve(expr: Extract<Expr, { kind: 'column' }>): Rex {
    const path = expr.path;
    const name = path[path.length - 1]!;
    const qualifier = path.length > 1 ? path.slice(0, -1).join('.') : undefined;
    const candidates = this.fields.map((f, index) => ({ f, index })).filter(({ f }) => qualifier === undefined || f.qualifier === qualifier);
    if (qualifier !== undefined && candidates.length === 0 && path.length >= 2) {
      // Not a table: `row.field` (or `t.row.field`), a ROW column's field.
      const access = this.#field(path, expr.pos);
      if (access !== undefined) return access;
    }
    if (qualifier !== undefined && candidates.length === 0) {
      const qualifiers = [...new Set(this.fields.map((f) => f.qualifier).filter((q): q is string => q !== undefined))];
      throw new SqlError(SqlErrorCode.SQL_UNKNOWN_TABLE, `Table '${qualifier}' not found in FROM${suggest(qualifier, qualifiers)}`, expr.pos);
    }
    const found = candidates.filter(({ f }) => f.name === name);
    if (found.length === 1) return { kind: 'input', index: found[0]!.index, type: found[0]!.f.type };
    if (found.length > 1) throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `Column '${name}' is ambiguous`, expr.pos);
    throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `Column '${path.join('.')}' not found in any table${suggest(name, candidates.map(({ f }) => f.name))}`, expr.pos);
  }

  /** `column.field` or `table.column.field` when `column` is a ROW; undefined when it is not one. */
  #field(path: readonly string[], pos: SqlPosition): Rex | undefined {
    for (const split of [1, 2]) {
      if (path.length <= split) continue;
      const base = path.slice(0, split);
      const columns = this.fields.map((f, index) => ({ f, index })).filter(({ f }) => f.name === base[base.length - 1] && (split === 1 || f.qualifier === base[0]));
      if (columns.length !== 1 || columns[0]!.f.type.root !== 'ROW') continue;
      let rex: Rex = { kind: 'input', index: columns[0]!.index, type: columns[0]!.f.type };
      for (let i = split; i < path.length; i++) {
        const name = path[i]!;
        const next = fieldAccess(rex, name);
        if (next === undefined) {
          // Named as far as it resolved: `r.s` of `r.s.bb`, or a field that is no ROW (`r.a` of `r.a.x`).
          const what = rex.type.root === 'ROW' ? `ROW column '${path.slice(0, i).join('.')}' has no field '${name}'${suggest(name, rex.type.fields!.map((f) => f.name))}` : `'${path.slice(0, i).join('.')}' is not a ROW, so it has no field '${name}'`;
          throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, what, pos);
        }
        rex = next;
      }
      return rex;
    }
    return undefined;
  }
}

/**
 * The FROM clause as a plan and the columns it makes visible. `pending` holds the WHERE
 * conjuncts of a comma join (`FROM a, b WHERE a.k = b.k`): each goes to the innermost join
 * whose columns it reads, as the join's condition.
 */
export function bindFrom(from: FromItem, catalog: Catalog, pending: Expr[] = []): { node: LogicalNode; scope: Scope } {
  switch (from.kind) {
    case 'join':
      return bindJoin(from, catalog, pending);
    case 'table': {
      if (from.asOf !== undefined) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, 'FOR SYSTEM_TIME AS OF is supported only on the right side of a JOIN (a lookup join)', from.asOf.pos);
      const node = relation(from.name, catalog, from.pos);
      return { node, scope: scopeOf(node, from.alias ?? from.name) };
    }
    case 'subquery': {
      const node = bindQuery(from.query, catalog);
      return { node, scope: scopeOf(node, from.alias) };
    }
    case 'window': {
      const input = relation(from.table, catalog, from.tablePos);
      const timeIndex = input.fields.findIndex((f) => f.name === from.timeColumn);
      if (timeIndex < 0) {
        throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `Column '${from.timeColumn}' not found in table '${from.table}'${suggest(from.timeColumn, input.fields.map((f) => f.name))}`, from.timeColumnPos);
      }
      const timeType = input.fields[timeIndex]!.type;
      if (timeType.rowtime !== true && timeType.proctime !== true) {
        throw new SqlError(
          SqlErrorCode.SQL_NOT_A_TIME_ATTRIBUTE,
          `The window function ${from.fn} requires the time column to be a time attribute (a column with a WATERMARK, or PROCTIME()), but ${from.timeColumn} is ${typeToString(timeType)}; declare WATERMARK FOR ${from.timeColumn} AS ... in the table`,
          from.timeColumnPos,
        );
      }
      const proctime = timeType.proctime === true;
      if (proctime && from.fn !== 'TUMBLE' && from.fn !== 'HOP') {
        throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `The window function ${from.fn} on a processing-time attribute is not supported by Weir's SQL yet (TUMBLE and HOP are)`, from.timeColumnPos);
      }
      const window = proctime ? { ...windowSpec(from), proctime } : windowSpec(from);
      // window_time is a time attribute of the window's kind (Flink's: *PROCTIME* over processing time).
      const windowTime = { ...withNullability(timeType.root === 'TIMESTAMP_LTZ' ? T.timestampLtz(3) : T.timestamp(3), false), ...(proctime ? { proctime } : { rowtime: true }) };
      const fields: Field[] = [
        ...input.fields,
        { name: 'window_start', type: withNullability(T.timestamp(3), false) },
        { name: 'window_end', type: withNullability(T.timestamp(3), false) },
        { name: 'window_time', type: windowTime },
      ];
      const node: LogicalNode = { kind: 'windowTvf', input, window, timeIndex, fields };
      return { node, scope: scopeOf(node, from.alias ?? from.table) };
    }
  }
}

function windowSpec(from: Extract<FromItem, { kind: 'window' }>): WindowSpec {
  const ms = from.intervals.map(intervalMillis);
  const expected = from.fn === 'TUMBLE' ? 1 : 2;
  const form = from.fn === 'TUMBLE' ? 'TUMBLE(TABLE t, DESCRIPTOR(ts), size)' : from.fn === 'HOP' ? 'HOP(TABLE t, DESCRIPTOR(ts), slide, size)' : 'CUMULATE(TABLE t, DESCRIPTOR(ts), step, size)';
  if (ms.length !== expected || ms.some((m) => !(m > 0))) {
    throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `${from.fn} takes ${expected} positive interval${expected > 1 ? 's' : ''}: ${form}`, from.pos);
  }
  if (from.fn === 'TUMBLE') return { fn: 'TUMBLE', size: ms[0]! };
  if (from.fn === 'HOP') return { fn: 'HOP', slide: ms[0]!, size: ms[1]! };
  if (ms[1]! % ms[0]! !== 0) throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `CUMULATE's size must be a whole multiple of its step: ${form}`, from.pos);
  return { fn: 'CUMULATE', step: ms[0]!, size: ms[1]! };
}

function relation(name: string, catalog: Catalog, pos: SqlPosition): LogicalNode {
  const entry = catalog.get(name, pos);
  if (entry.kind === 'view') return bindQuery(entry.query, catalog);
  return { kind: 'scan', table: entry, fields: entry.columns.map((c) => ({ name: c.name, type: c.type })) };
}

export function scopeOf(node: LogicalNode, qualifier: string | undefined): Scope {
  return new Scope(node.fields.map((f) => ({ ...f, qualifier })));
}
