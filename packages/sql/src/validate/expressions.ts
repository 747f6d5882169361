import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';
import type { Expr } from '../parse/ast.ts';
import type { Rex } from '../logical/rex.ts';
import type { ScalarFunction } from '../functions/scalar-function.ts';
import { AGGREGATES, inferCall, inferExtract, isBuiltIn, unknownFunction } from './functions.ts';
import { commonType, isNumeric, isTimestamp, parseType, T, typeToString, withNullability, withoutRowtime, type SqlType } from './types.ts';

/**
 * How names and aggregates resolve where an expression is bound: `column` resolves a column
 * reference; `aggregate` an aggregate call (absent where none is allowed); `match` may answer
 * for a whole subexpression first (a GROUP BY expression in the select list).
 */
export interface BindContext {
  column(expr: Extract<Expr, { kind: 'column' }>): Rex;
  aggregate?(expr: Extract<Expr, { kind: 'call' }>): Rex;
  match?(expr: Expr): Rex | undefined;
  /** The catalog's user-defined functions, by upper-case name (CREATE FUNCTION, createTemporarySystemFunction). */
  functions?: { userFunction(name: string): ScalarFunction | undefined; functionNames(): string[] };
}

const UNIT_MS: Record<string, number> = { MILLISECOND: 1, SECOND: 1000, SECONDS: 1000, MINUTE: 60_000, MINUTES: 60_000, HOUR: 3_600_000, HOURS: 3_600_000, DAY: 86_400_000, DAYS: 86_400_000 };

export function intervalMillis(expr: Extract<Expr, { kind: 'interval' }>): number {
  const unit = UNIT_MS[expr.unit];
  const value = Number(expr.value);
  if (unit === undefined || !Number.isFinite(value)) {
    throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `INTERVAL '${expr.value}' ${expr.unit}: Weir's SQL has day-time intervals of MILLISECOND, SECOND, MINUTE, HOUR and DAY with a number`, expr.pos);
  }
  return value * unit;
}

export function bindExpr(expr: Expr, ctx: BindContext): Rex {
  const matched = ctx.match?.(expr);
  if (matched !== undefined) return matched;
  switch (expr.kind) {
    case 'column':
      return ctx.column(expr);
    case 'literal':
      return literal(expr);
    case 'interval':
      return { kind: 'literal', value: intervalMillis(expr), type: T.INTERVAL };
    case 'cast': {
      const operand = bindExpr(expr.expr, ctx);
      const target = withNullability(parseType(expr.typeText, expr.pos), operand.type.nullable);
      checkCast(operand.type, target, expr.pos);
      return { kind: 'call', op: 'CAST', operands: [operand], type: target };
    }
    case 'case':
      return caseExpr(expr, ctx);
    case 'over':
      throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${expr.call.name}(..) OVER (..) is only supported as a select item of its own (as in SELECT *, ROW_NUMBER() OVER (..) AS rn)`, expr.pos);
    case 'call': {
      if (AGGREGATES.has(expr.name)) {
        if (ctx.aggregate === undefined) throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Aggregate function ${expr.name} is not allowed here (only in SELECT and HAVING of a query)`, expr.pos);
        return ctx.aggregate(expr);
      }
      if (expr.distinct === true || expr.star === true) throw unknownFunction(expr.name, expr.pos);
      const operands = expr.args.map((a) => bindExpr(a, ctx));
      if (expr.name === 'EXTRACT') return { kind: 'call', op: 'EXTRACT', operands, type: inferExtract(operands, expr.pos) };
      const udf = isBuiltIn(expr.name) ? undefined : ctx.functions?.userFunction(expr.name);
      if (udf !== undefined) return { kind: 'call', op: expr.name, operands, type: withNullability(parseType(udf.resultType, expr.pos), true), udf };
      if (!isBuiltIn(expr.name)) throw unknownFunction(expr.name, expr.pos, ctx.functions?.functionNames());
      const type = inferCall(expr.name, operands.map((o) => o.type), expr.pos);
      return { kind: 'call', op: expr.name === 'MOD' ? '%' : expr.name, operands, type };
    }
  }
}

function literal(expr: Extract<Expr, { kind: 'literal' }>): Rex {
  switch (expr.type) {
    case 'null':
      return { kind: 'literal', value: null, type: T.NULL };
    case 'boolean':
      return { kind: 'literal', value: expr.text === 'TRUE', type: withNullability(T.BOOLEAN, false) };
    case 'string':
      return { kind: 'literal', value: expr.text, type: withNullability(T.STRING, false) };
    case 'number': {
      if (/[eE]/.test(expr.text)) return { kind: 'literal', value: Number(expr.text), type: withNullability(T.DOUBLE, false) };
      const [whole, fraction = ''] = expr.text.replace(/^-/, '').split('.');
      const negative = expr.text.startsWith('-');
      if (fraction === '' && !expr.text.includes('.')) {
        const value = Number(expr.text);
        if (Number.isSafeInteger(value)) return { kind: 'literal', value, type: withNullability(Math.abs(value) <= 2 ** 31 - 1 ? T.INT : T.BIGINT, false) };
      }
      const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
      const unscaled = BigInt(digits) * (negative ? -1n : 1n);
      return { kind: 'literal', value: unscaled, type: withNullability(T.decimal(Math.max(digits.length, fraction.length, 1), fraction.length), false) };
    }
  }
}

function caseExpr(expr: Extract<Expr, { kind: 'case' }>, ctx: BindContext): Rex {
  const operand = expr.operand === undefined ? undefined : bindExpr(expr.operand, ctx);
  const operands: Rex[] = [];
  let type: SqlType | undefined;
  for (const [when, then] of expr.whens) {
    let condition = bindExpr(when, ctx);
    if (operand !== undefined) condition = { kind: 'call', op: '=', operands: [operand, condition], type: inferCall('=', [operand.type, condition.type], when.kind === 'column' ? when.pos : expr.pos) };
    if (condition.type.root !== 'BOOLEAN') throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `CASE WHEN takes a BOOLEAN condition, got ${typeToString(condition.type)}`, expr.pos);
    const result = bindExpr(then, ctx);
    operands.push(condition, result);
    type = type === undefined ? result.type : commonType(type, result.type);
    if (type === undefined) throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `CASE results are of types that do not mix: ${typeToString(result.type)} with the others`, expr.pos);
  }
  const otherwise: Rex = expr.otherwise === undefined ? { kind: 'literal', value: null, type: T.NULL } : bindExpr(expr.otherwise, ctx);
  const resultType = commonType(type!, otherwise.type);
  if (resultType === undefined) throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `CASE ELSE is ${typeToString(otherwise.type)}, which does not mix with ${typeToString(type!)}`, expr.pos);
  operands.push(otherwise);
  return { kind: 'call', op: 'CASE', operands, type: withoutRowtime(resultType) };
}

function checkCast(from: SqlType, to: SqlType, pos: SqlPosition): void {
  const ok =
    from.root === 'NULL' ||
    to.root === 'STRING' ||
    from.root === to.root ||
    (isNumeric(from) && isNumeric(to)) ||
    (from.root === 'STRING' && to.root !== 'INTERVAL') ||
    (isTimestamp(from) && (isTimestamp(to) || to.root === 'DATE')) ||
    (from.root === 'DATE' && isTimestamp(to)) ||
    (from.root === 'BOOLEAN' && isNumeric(to));
  if (!ok) throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Cast function cannot convert value of type ${typeToString(withoutRowtime(from))} to type ${typeToString(to)}`, pos);
}

/** A key for comparing two bound expressions (GROUP BY expressions against select items). */
export function rexKey(rex: Rex): string {
  return JSON.stringify(rex, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v), 0).replace(/,"rowtime":true/g, '');
}
