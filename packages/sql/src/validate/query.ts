import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Expr, FromItem, Query, Select } from '../parse/ast.ts';
import type { AggCall, LogicalNode } from '../logical/nodes.ts';
import type { Field, Rex } from '../logical/rex.ts';
import type { Catalog } from './catalog.ts';
import { bindExpr, rexKey, type BindContext } from './expressions.ts';
import { bindFrom } from './from.ts';
import { inferAggregate } from './functions.ts';
import { groupWindowOf } from './group-window.ts';
import { splitAnd } from './join.ts';
import { bindOver } from './over.ts';
import { isOver } from './rank.ts';
import { T, typeToString, withNullability, withoutRowtime } from './types.ts';
import { bindUnion, distinct } from './union.ts';

/** A query (a SELECT or a UNION ALL of them) as a logical plan, every name and type resolved against the catalog. */
export function bindQuery(query: Query, catalog: Catalog): LogicalNode {
  if (query.kind === 'union') return bindUnion(query, catalog);
  const node = bindSelect(query, catalog);
  return query.distinct === true ? distinct(node) : node;
}

function hasCommaJoin(from: FromItem): boolean {
  return from.kind === 'join' && (from.condition === undefined || hasCommaJoin(from.left));
}

function bindSelect(select: Select, catalog: Catalog): LogicalNode {
  if (select.from === undefined) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, 'a SELECT without FROM is not supported by Weir\'s SQL yet', select.pos);
  const pending = select.where !== undefined && hasCommaJoin(select.from) ? splitAnd(select.where) : undefined;
  let { node, scope } = bindFrom(select.from, catalog, pending);
  const where = pending === undefined ? select.where : pending.reduce<Expr | undefined>((a, b) => (a === undefined ? b : { kind: 'call', name: 'AND', args: [a, b], pos: b.pos }), undefined);
  const plain: BindContext = { column: (c) => scope.resolve(c), functions: catalog };
  if (where !== undefined) {
    const condition = bindExpr(where, plain);
    requireBoolean(condition, 'WHERE', where);
    node = { kind: 'calc', input: node, projects: node.fields.map((f, index) => ({ kind: 'input', index, type: f.type })), condition, fields: node.fields };
  }
  const isAggregate = select.groupBy.length > 0 || select.items.some((i) => i.kind === 'expr' && containsAggregate(i.expr)) || (select.having !== undefined);
  if (!isAggregate) {
    // OVER items in the select list: a Rank (ROW_NUMBER) or an OverAggregate over the rows, each item one more field.
    const overs = select.items.flatMap((i) => (i.kind === 'expr' && isOver(i.expr) ? [i.expr] : []));
    let fieldOf: ((over: Extract<Expr, { kind: 'over' }>) => number) | undefined;
    if (overs.length > 0) ({ node, fieldOf } = bindOver(node, overs, plain));
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
      } else if (isOver(item.expr)) {
        const index = fieldOf!(item.expr);
        projects.push({ kind: 'input', index, type: node.fields[index]!.type });
        names.push(item.alias ?? `EXPR$${names.length}`);
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
  const { window, keys: groupKeys } = groupWindowOf(select.groupBy, plain);
  for (const g of groupKeys) {
    const rex = bindExpr(g, plain);
    if (!keyIndex.has(rexKey(rex))) {
      keyIndex.set(rexKey(rex), preProjects.length);
      preProjects.push(rex);
      preNames.push(g.kind === 'column' ? g.path[g.path.length - 1]! : `$f${preProjects.length - 1}`);
    }
  }
  const keyCount = preProjects.length;
  // A group window's start and end come right after the keys (Flink's w$start, w$end).
  const windowFields: Field[] = window === undefined ? [] : ['w$start', 'w$end'].map((name) => ({ name, type: withNullability(T.timestamp(3), false) }));
  const aggs: AggCall[] = [];
  const aggIndex = new Map<string, number>();
  const aggregateOutput = (): Field[] => [
    ...preNames.slice(0, keyCount).map((name, i) => ({ name, type: withoutRowtime(preProjects[i]!.type) })),
    ...windowFields,
    ...aggs.map((a) => ({ name: a.name, type: a.type })),
  ];
  const grouped: BindContext = {
    functions: catalog,
    column: (c) => {
      throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Expression '${c.path.join('.')}' is not being grouped; add it to GROUP BY or aggregate it`, c.pos);
    },
    match: (e) => {
      const auxiliary = window?.auxiliary(e);
      if (auxiliary !== undefined) return { kind: 'input', index: keyCount + (auxiliary === 'start' ? 0 : 1), type: windowFields[0]!.type };
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
      const distinct = call.distinct === true;
      if (distinct && window !== undefined) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${call.name}(DISTINCT ..) in a group window is not supported by Weir's SQL yet`, call.pos);
      const type = inferAggregate(call.name, arg?.type, call.pos);
      const key = `${call.name}(${distinct ? 'DISTINCT ' : ''}${arg === undefined ? '*' : rexKey(arg)})`;
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
        aggs.push({ fn: call.name as AggCall['fn'], ...(argIndex !== undefined ? { arg: argIndex } : {}), distinct, ...(distinct ? { pos: call.pos } : {}), type, name: `EXPR$${index}` });
      }
      return { kind: 'input', index: keyCount + windowFields.length + index, type };
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
  const aggregate: LogicalNode =
    window === undefined
      ? { kind: 'aggregate', input: pre, groupKeys: preProjects.slice(0, keyCount).map((_, i) => i), aggs, fields: aggregateOutput() }
      : { kind: 'windowAggregate', input: pre, window: window.spec, keys: [...preProjects.slice(0, keyCount).map((_, index) => ({ kind: 'field' as const, index })), { kind: 'window_start' }, { kind: 'window_end' }], aggs, fields: aggregateOutput() };
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
export function fieldsOf(names: readonly string[], projects: readonly Rex[]): Field[] {
  const seen = new Set<string>();
  return names.map((name, i) => {
    let unique = name;
    for (let n = 0; seen.has(unique); n++) unique = `${name}${n}`;
    seen.add(unique);
    return { name: unique, type: projects[i]!.type };
  });
}

