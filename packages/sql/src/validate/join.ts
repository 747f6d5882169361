import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Expr, FromItem } from '../parse/ast.ts';
import { analyzeJoinCondition, readsBothSides } from '../logical/join-condition.ts';
import type { LogicalNode } from '../logical/nodes.ts';
import type { Field } from '../logical/rex.ts';
import type { Catalog } from './catalog.ts';
import { bindExpr } from './expressions.ts';
import { bindFrom, Scope } from './from.ts';
import { bindLookupJoin, isLookup } from './lookup-join.ts';
import { fieldsOf } from './query.ts';
import { typeToString, withNullability, withoutRowtime } from './types.ts';

/** The AND-ed parts of a WHERE as written. */
export function splitAnd(expr: Expr): Expr[] {
  return expr.kind === 'call' && expr.name === 'AND' ? expr.args.flatMap(splitAnd) : [expr];
}

/**
 * `left JOIN right ON condition` as a join node over the two sides' plans: the condition is
 * bound against both sides' columns (qualified by their aliases) and taken apart into equal
 * keys, event-time bounds and a residual predicate (logical/join-condition.ts).
 */
export function bindJoin(from: Extract<FromItem, { kind: 'join' }>, catalog: Catalog, pending: Expr[]): { node: LogicalNode; scope: Scope } {
  if (isLookup(from.right)) return bindLookupJoin(from, from.right, catalog, pending);
  const left = bindFrom(from.left, catalog, pending);
  const right = bindFrom(from.right, catalog, pending);
  const scope = new Scope([...left.scope.fields, ...right.scope.fields]);
  const ctx = { column: (c: Extract<Expr, { kind: 'column' }>) => scope.resolve(c), functions: catalog };
  let conditionExpr = from.condition;
  if (conditionExpr === undefined) {
    // A comma join: the WHERE conjuncts over both sides of this join (and no inner join took); the rest stay in WHERE.
    const mine = pending.filter((part) => {
      try {
        return readsBothSides(bindExpr(part, ctx), left.node.fields.length);
      } catch {
        return false;
      }
    });
    for (const part of mine) pending.splice(pending.indexOf(part), 1);
    conditionExpr = mine.reduce<Expr | undefined>((a, b) => (a === undefined ? b : { kind: 'call', name: 'AND', args: [a, b], pos: b.pos }), undefined);
  }
  if (conditionExpr === undefined) {
    throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, 'a join without a condition (a cross join) is not supported by Weir\'s SQL: write JOIN .. ON a.k = b.k, or a WHERE that equates the two tables\' columns', from.pos);
  }
  const condition = bindExpr(conditionExpr, ctx);
  if (condition.type.root !== 'BOOLEAN') throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `a join condition must be BOOLEAN, got ${typeToString(withoutRowtime(condition.type))}`, conditionExpr.pos);
  const leftCount = left.node.fields.length;
  const analysis = analyzeJoinCondition(condition, leftCount);
  if (analysis.interval === undefined && analysis.leftKeys.length === 0) {
    throw new SqlError(
      SqlErrorCode.SQL_UNSUPPORTED,
      'a join without an equality between the two sides\' columns (a non-equi join) is not supported by Weir\'s SQL: join ON a.k = b.k, or bound the two sides\' time attributes for an interval join (a.ts BETWEEN b.ts - INTERVAL \'1\' MINUTE AND b.ts + INTERVAL \'1\' MINUTE)',
      conditionExpr.pos,
    );
  }
  // A regular join keeps no time attribute (its rows are not in event-time order); an interval join keeps both, as Flink's.
  const side = (fields: readonly Field[], padded: boolean): Field[] =>
    fields.map((f) => ({ name: f.name, type: withNullability(analysis.interval === undefined ? withoutRowtime(f.type) : f.type, f.type.nullable || padded) }));
  const sides = [...side(left.node.fields, from.joinType === 'RIGHT' || from.joinType === 'FULL'), ...side(right.node.fields, from.joinType === 'LEFT' || from.joinType === 'FULL')];
  // Output names unique as Flink makes them (k, k0).
  const fields = fieldsOf(sides.map((f) => f.name), sides.map((f) => ({ kind: 'literal', value: null, type: f.type })));
  const node: LogicalNode = { kind: 'join', joinType: from.joinType, left: left.node, right: right.node, condition, ...analysis, fields };
  return { node, scope: new Scope(scope.fields.map((f, i) => ({ ...f, type: fields[i]!.type }))) };
}
