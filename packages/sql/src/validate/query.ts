import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Expr, FromItem, Select } from '../parse/ast.ts';
import type { AggCall, LogicalNode, WindowSpec } from '../logical/nodes.ts';
import type { Field, Rex } from '../logical/rex.ts';
import { suggest, type Catalog } from './catalog.ts';
import { bindExpr, intervalMillis, rexKey, type BindContext } from './expressions.ts';
import { inferAggregate } from './functions.ts';
import { T, typeToString, withNullability, withoutRowtime } from './types.ts';

interface ScopeField extends Field {
  readonly qualifier: string | undefined;
}

/** The columns a query's FROM makes visible, with the table name or alias that qualifies them. */
class Scope {
  constructor(readonly fields: readonly ScopeField[]) {}

  resolve(expr: Extract<Expr, { kind: 'column' }>): Rex {
    const path = expr.path;
    const name = path[path.length - 1]!;
    const qualifier = path.length > 1 ? path.slice(0, -1).join('.') : undefined;
    const candidates = this.fields.map((f, index) => ({ f, index })).filter(({ f }) => qualifier === undefined || f.qualifier === qualifier);
    if (qualifier !== undefined && candidates.length === 0) {
      const qualifiers = [...new Set(this.fields.map((f) => f.qualifier).filter((q): q is string => q !== undefined))];
      throw new SqlError(SqlErrorCode.SQL_UNKNOWN_TABLE, `Table '${qualifier}' not found in FROM${suggest(qualifier, qualifiers)}`, expr.pos);
    }
    const found = candidates.filter(({ f }) => f.name === name);
    if (found.length === 1) return { kind: 'input', index: found[0]!.index, type: found[0]!.f.type };
    if (found.length > 1) throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `Column '${name}' is ambiguous`, expr.pos);
    throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `Column '${path.join('.')}' not found in any table${suggest(name, candidates.map(({ f }) => f.name))}`, expr.pos);
  }
}

/** A SELECT as a logical plan, every name and type resolved against the catalog. */
export function bindQuery(select: Select, catalog: Catalog): LogicalNode {
  if (select.from === undefined) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, 'a SELECT without FROM is not supported by Weir\'s SQL yet', select.pos);
  let { node, scope } = bindFrom(select.from, catalog);
  const plain: BindContext = { column: (c) => scope.resolve(c) };
  if (select.where !== undefined) {
    const condition = bindExpr(select.where, plain);
    requireBoolean(condition, 'WHERE', select.where);
    node = { kind: 'calc', input: node, projects: node.fields.map((f, index) => ({ kind: 'input', index, type: f.type })), condition, fields: node.fields };
  }
  const isAggregate = select.groupBy.length > 0 || select.items.some((i) => i.kind === 'expr' && containsAggregate(i.expr)) || (select.having !== undefined);
  if (!isAggregate) {
    const projects: Rex[] = [];
    const names: string[] = [];
    for (const item of select.items) {
      if (item.kind === 'star') {
        scope.fields.forEach((f, index) => {
          if (item.qualifier === undefined || f.qualifier === item.qualifier) {
            projects.push({ kind: 'input', index, type: f.type });
            names.push(f.name);
          }
        });
      } else {
        projects.push(bindExpr(item.expr, plain));
        names.push(item.alias ?? (item.expr.kind === 'column' ? item.expr.path[item.expr.path.length - 1]! : `EXPR$${names.length}`));
      }
    }
    return { kind: 'calc', input: node, projects, fields: fieldsOf(names, projects) };
  }

  // GROUP BY: a Calc computing the keys and the aggregates' arguments, the Aggregate, then HAVING and the select list over its output.
  const preProjects: Rex[] = [];
  const preNames: string[] = [];
  const keyIndex = new Map<string, number>();
  for (const g of select.groupBy) {
    const rex = bindExpr(g, plain);
    if (!keyIndex.has(rexKey(rex))) {
      keyIndex.set(rexKey(rex), preProjects.length);
      preProjects.push(rex);
      preNames.push(g.kind === 'column' ? g.path[g.path.length - 1]! : `$f${preProjects.length - 1}`);
    }
  }
  const keyCount = preProjects.length;
  const aggs: AggCall[] = [];
  const aggIndex = new Map<string, number>();
  const aggregateOutput = (): Field[] => [
    ...preNames.slice(0, keyCount).map((name, i) => ({ name, type: withoutRowtime(preProjects[i]!.type) })),
    ...aggs.map((a) => ({ name: a.name, type: a.type })),
  ];
  const grouped: BindContext = {
    column: (c) => {
      throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Expression '${c.path.join('.')}' is not being grouped; add it to GROUP BY or aggregate it`, c.pos);
    },
    match: (e) => {
      if (containsAggregate(e) || e.kind === 'literal') return undefined;
      let rex: Rex;
      try {
        rex = bindExpr(e, plain);
      } catch {
        return undefined;
      }
      const index = keyIndex.get(rexKey(rex));
      return index === undefined ? undefined : { kind: 'input', index, type: withoutRowtime(preProjects[index]!.type) };
    },
    aggregate: (call) => {
      if (call.args.length > 1) throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `${call.name} takes one argument`, call.pos);
      const arg = call.args[0] === undefined ? undefined : bindExpr(call.args[0], plain);
      if (call.distinct === true) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${call.name}(DISTINCT ..) is not supported by Weir's SQL yet`, call.pos);
      const type = inferAggregate(call.name, arg?.type, call.pos);
      const key = `${call.name}(${arg === undefined ? '*' : rexKey(arg)})`;
      let index = aggIndex.get(key);
      if (index === undefined) {
        let argIndex: number | undefined;
        if (arg !== undefined) {
          argIndex = preProjects.findIndex((p) => rexKey(p) === rexKey(arg));
          if (argIndex < 0) {
            argIndex = preProjects.length;
            preProjects.push(arg);
            preNames.push(`$f${argIndex}`);
          }
        }
        index = aggs.length;
        aggIndex.set(key, index);
        aggs.push({ fn: call.name as AggCall['fn'], ...(argIndex !== undefined ? { arg: argIndex } : {}), distinct: false, type, name: `EXPR$${index}` });
      }
      return { kind: 'input', index: keyCount + index, type };
    },
  };
  const selectProjects: Rex[] = [];
  const selectNames: string[] = [];
  for (const item of select.items) {
    if (item.kind === 'star') throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, 'SELECT * in a GROUP BY query: name the grouped columns and aggregates', item.pos);
    selectProjects.push(bindExpr(item.expr, grouped));
    selectNames.push(item.alias ?? (item.expr.kind === 'column' ? item.expr.path[item.expr.path.length - 1]! : `EXPR$${selectNames.length}`));
  }
  const having = select.having === undefined ? undefined : bindExpr(select.having, grouped);
  if (having !== undefined) requireBoolean(having, 'HAVING', select.having!);
  const pre: LogicalNode = { kind: 'calc', input: node, projects: preProjects, fields: fieldsOf(preNames, preProjects) };
  const aggregate: LogicalNode = { kind: 'aggregate', input: pre, groupKeys: preProjects.slice(0, keyCount).map((_, i) => i), aggs, fields: aggregateOutput() };
  let top: LogicalNode = aggregate;
  if (having !== undefined) top = { kind: 'calc', input: top, projects: top.fields.map((f, index) => ({ kind: 'input', index, type: f.type })), condition: having, fields: top.fields };
  return { kind: 'calc', input: top, projects: selectProjects, fields: fieldsOf(selectNames, selectProjects) };
}

function requireBoolean(rex: Rex, clause: string, expr: Expr): void {
  if (rex.type.root !== 'BOOLEAN' && rex.type.root !== 'NULL') {
    throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `${clause} takes a BOOLEAN condition, got ${typeToString(withoutRowtime(rex.type))}`, expr.pos);
  }
}

function containsAggregate(expr: Expr): boolean {
  switch (expr.kind) {
    case 'call':
      return ['COUNT', 'SUM', 'MIN', 'MAX', 'AVG'].includes(expr.name) || expr.args.some(containsAggregate);
    case 'case':
      return (expr.operand !== undefined && containsAggregate(expr.operand)) || expr.whens.some(([w, t]) => containsAggregate(w) || containsAggregate(t)) || (expr.otherwise !== undefined && containsAggregate(expr.otherwise));
    case 'cast':
      return containsAggregate(expr.expr);
    default:
      return false;
  }
}

/** Output names as Flink makes them unique: a repeated name gets 0, 1, ... appended. */
function fieldsOf(names: readonly string[], projects: readonly Rex[]): Field[] {
  const seen = new Set<string>();
  return names.map((name, i) => {
    let unique = name;
    for (let n = 0; seen.has(unique); n++) unique = `${name}${n}`;
    seen.add(unique);
    return { name: unique, type: projects[i]!.type };
  });
}

function bindFrom(from: FromItem, catalog: Catalog): { node: LogicalNode; scope: Scope } {
  switch (from.kind) {
    case 'table': {
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
      if (timeType.rowtime !== true) {
        throw new SqlError(
          SqlErrorCode.SQL_NOT_A_TIME_ATTRIBUTE,
          `The window function ${from.fn} requires the time column to be a time attribute (a column with a WATERMARK), but ${from.timeColumn} is ${typeToString(timeType)}; declare WATERMARK FOR ${from.timeColumn} AS ... in the table`,
          from.timeColumnPos,
        );
      }
      const window = windowSpec(from);
      const windowTime = { ...withNullability(timeType.root === 'TIMESTAMP_LTZ' ? T.timestampLtz(3) : T.timestamp(3), false), rowtime: true };
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

function relation(name: string, catalog: Catalog, pos: Select['pos']): LogicalNode {
  const entry = catalog.get(name, pos);
  if (entry.kind === 'view') return bindQuery(entry.query, catalog);
  return { kind: 'scan', table: entry, fields: entry.columns.map((c) => ({ name: c.name, type: c.type })) };
}

function scopeOf(node: LogicalNode, qualifier: string | undefined): Scope {
  return new Scope(node.fields.map((f) => ({ ...f, qualifier })));
}
