import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';
import type { Rex } from '../logical/rex.ts';
import { isInteger, isString, nullableIfAny, strings, type Inference } from './inference.ts';
import { commonType, isNumeric, isTimestamp, MAX_DECIMAL_PRECISION, T, typeToString, withNullability, withoutRowtime, type SqlType } from './types.ts';

/**
 * Flink's built-in scalar functions beyond the operators, CASE/CAST and the string basics
 * (functions.ts): math, comparison, more strings, hashes, and the date parts and clock
 * functions, with Flink's result types. Their run-time side is translate/builtin-functions.ts.
 */

const isNumber = (t: SqlType | undefined): boolean => t !== undefined && (isNumeric(t) || t.root === 'NULL');
const isDateLike = (t: SqlType | undefined): boolean => t !== undefined && (isTimestamp(t) || t.root === 'DATE' || t.root === 'NULL');

/** DOUBLE of numeric arguments (Flink's POWER, SQRT, LN, ...). */
const toDouble = (form: string, arity: readonly number[]): Inference => (args, fail) =>
  arity.includes(args.length) && args.every(isNumber) ? nullableIfAny(T.DOUBLE, args) : fail(form);

/** FLOOR and CEIL: an integer keeps its type; DECIMAL(p, s) becomes DECIMAL(p - s + 1, 0) (Flink's findFloorCeilDecimalType). */
const floorCeil = (name: string): Inference => (args, fail) => {
  const [x] = args;
  if (args.length !== 1 || !isNumber(x)) fail(`${name}(<NUMERIC>)`);
  if (x!.root !== 'DECIMAL' || x!.scale === 0) return withoutRowtime(x!);
  return withNullability(T.decimal(Math.min(MAX_DECIMAL_PRECISION, x!.precision! - x!.scale! + 1), 0), x!.nullable);
};

/** The common type of all arguments, NULL-able if any is (GREATEST, LEAST: NULL when any argument is). */
const common = (form: string): Inference => (args, fail) => {
  let type: SqlType | undefined = args[0];
  for (const a of args.slice(1)) type = type === undefined ? undefined : commonType(type, a);
  if (args.length < 2 || type === undefined) fail(form);
  return nullableIfAny(withoutRowtime(type!), args);
};

/** A date part of a DATE or timestamp (Flink's YEAR(d) is EXTRACT(YEAR FROM d)): BIGINT. */
const datePart = (name: string): Inference => (args, fail) => (args.length === 1 && isDateLike(args[0]) ? nullableIfAny(T.BIGINT, args) : fail(`${name}(<DATE> | <TIMESTAMP>)`));

/** Each date-part function's EXTRACT unit. */
export const DATE_PART_UNITS: Readonly<Record<string, string>> = {
  YEAR: 'YEAR',
  QUARTER: 'QUARTER',
  MONTH: 'MONTH',
  WEEK: 'WEEK',
  DAYOFYEAR: 'DOY',
  DAYOFMONTH: 'DAY',
  DAYOFWEEK: 'DOW',
};

const hash = (name: string): Inference => strings(T.STRING, `${name}(<STRING>)`, (a) => a.length === 1 && isString(a[0]));
const pad = (name: string): Inference => (args, fail) =>
  args.length === 3 && isString(args[0]) && isInteger(args[1]) && isString(args[2]) ? withNullability(T.STRING, true) : fail(`${name}(<STRING>, <INTEGER> length, <STRING> pad)`);
const oneString = (name: string, result: SqlType = T.STRING): Inference => strings(result, `${name}(<STRING>)`, (a) => a.length === 1 && isString(a[0]));
const clock = (name: string, type: SqlType): Inference => (args, fail) => (args.length === 0 ? withNullability(type, false) : fail(`${name}()`));

export const BUILTIN_SCALARS: Record<string, Inference> = {
  // ROUND's DECIMAL type depends on its literal digits: inferRound, called by the binder.
  FLOOR: floorCeil('FLOOR'),
  CEIL: floorCeil('CEIL'),
  CEILING: floorCeil('CEILING'),
  POWER: toDouble('POWER(<NUMERIC>, <NUMERIC>)', [2]),
  SQRT: toDouble('SQRT(<NUMERIC>)', [1]),
  EXP: toDouble('EXP(<NUMERIC>)', [1]),
  LN: toDouble('LN(<NUMERIC>)', [1]),
  LOG10: toDouble('LOG10(<NUMERIC>)', [1]),
  LOG2: toDouble('LOG2(<NUMERIC>)', [1]),
  LOG: toDouble('LOG(<NUMERIC>) or LOG(<NUMERIC> base, <NUMERIC>)', [1, 2]),
  SIGN: (args, fail) => (args.length === 1 && isNumber(args[0]) ? withoutRowtime(args[0]!) : fail('SIGN(<NUMERIC>)')),
  NULLIF: (args, fail) => (args.length === 2 && commonType(args[0]!, args[1]!) !== undefined ? withNullability(withoutRowtime(args[0]!), true) : fail('NULLIF(<T>, <T>)')),
  GREATEST: common('GREATEST(<T>, <T>, ...) with arguments of one type family'),
  LEAST: common('LEAST(<T>, <T>, ...) with arguments of one type family'),
  LPAD: pad('LPAD'),
  RPAD: pad('RPAD'),
  LTRIM: oneString('LTRIM'),
  RTRIM: oneString('RTRIM'),
  REVERSE: oneString('REVERSE'),
  INITCAP: oneString('INITCAP'),
  CHARACTER_LENGTH: oneString('CHARACTER_LENGTH', T.INT),
  REPEAT: strings(T.STRING, 'REPEAT(<STRING>, <INTEGER>)', (a) => a.length === 2 && isString(a[0]) && isInteger(a[1])),
  LOCATE: strings(T.INT, 'LOCATE(<STRING> needle, <STRING>[, <INTEGER> from])', (a) => (a.length === 2 || a.length === 3) && isString(a[0]) && isString(a[1]) && (a.length === 2 || isInteger(a[2]))),
  // Flink's: NULL when the pattern does not compile.
  REGEXP_REPLACE: (args, fail) => (args.length === 3 && args.every(isString) ? withNullability(T.STRING, true) : fail('REGEXP_REPLACE(<STRING>, <STRING> regex, <STRING> replacement)')),
  REGEXP: (args, fail) => (args.length === 2 && args.every(isString) ? withNullability(T.BOOLEAN, true) : fail('REGEXP(<STRING>, <STRING> regex)')),
  MD5: hash('MD5'),
  SHA1: hash('SHA1'),
  SHA256: hash('SHA256'),
  TO_BASE64: oneString('TO_BASE64'),
  FROM_BASE64: oneString('FROM_BASE64'),
  ...Object.fromEntries(Object.keys(DATE_PART_UNITS).map((name) => [name, datePart(name)])),
  // Flink's: NULL (Flink: Long.MIN_VALUE) when the text does not parse.
  UNIX_TIMESTAMP: (args, fail) =>
    args.length === 0 ? withNullability(T.BIGINT, false) : args.length <= 2 && args.every(isString) ? withNullability(T.BIGINT, true) : fail("UNIX_TIMESTAMP(), UNIX_TIMESTAMP(<STRING>[, <STRING> format 'yyyy-MM-dd HH:mm:ss'])"),
  FROM_UNIXTIME: (args, fail) =>
    (args.length === 1 || args.length === 2) && isInteger(args[0]) && (args.length === 1 || isString(args[1])) ? nullableIfAny(T.STRING, args) : fail("FROM_UNIXTIME(<INTEGER> seconds[, <STRING> format 'yyyy-MM-dd HH:mm:ss'])"),
  // The unit comes as a string literal from the parser (parse/timestamp-units.ts). Flink's: INT, the whole units from the first to the second.
  TIMESTAMPDIFF: (args, fail) => (args.length === 3 && isString(args[0]) && isDateLike(args[1]) && isDateLike(args[2]) ? nullableIfAny(T.INT, args) : fail('TIMESTAMPDIFF(<unit>, <TIMESTAMP>, <TIMESTAMP>)')),
  TIMESTAMPADD: (args, fail) =>
    args.length === 3 && isString(args[0]) && isInteger(args[1]) && isDateLike(args[2]) && args[2]!.root !== 'NULL' ? nullableIfAny(withoutRowtime(args[2]!), args) : fail('TIMESTAMPADD(<unit>, <INTEGER>, <TIMESTAMP> | <DATE>)'),
  NOW: clock('NOW', T.timestampLtz(3)),
  CURRENT_TIMESTAMP: clock('CURRENT_TIMESTAMP', T.timestampLtz(3)),
  LOCALTIMESTAMP: clock('LOCALTIMESTAMP', T.timestamp(3)),
  CURRENT_DATE: clock('CURRENT_DATE', T.DATE),
};

/**
 * ROUND(x[, d]) (d 0 when left out): x's type, but for DECIMAL(p, s), Flink's
 * findRoundDecimalType: DECIMAL(p, s) when d >= s, DECIMAL(1 + p - s + d, d) for 0 <= d < s,
 * DECIMAL(1 + p - s, 0) for d < 0; so a DECIMAL's d must be an integer literal.
 */
export function inferRound(args: readonly Rex[], pos: SqlPosition): SqlType {
  const [x, d] = args;
  const digits = d === undefined ? 0 : d.kind === 'literal' && typeof d.value === 'number' ? d.value : undefined;
  const fail = (): never => {
    const shown = args.map((a) => `<${typeToString(withoutRowtime(a.type))}>`).join(', ');
    throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Cannot apply 'ROUND' to arguments of type ${shown}. Supported form(s): ROUND(<NUMERIC>[, <INTEGER>]), with an integer literal for a DECIMAL`, pos);
  };
  if (x === undefined || args.length > 2 || !isNumber(x.type) || (d !== undefined && !isInteger(d.type))) return fail();
  const type = withoutRowtime(x.type);
  if (type.root !== 'DECIMAL') return nullableIfAny(type, args.map((a) => a.type));
  if (digits === undefined) return fail();
  const [p, s] = [type.precision!, type.scale!];
  const nullable = type.nullable;
  if (digits >= s) return type;
  if (digits >= 0) return withNullability(T.decimal(Math.min(MAX_DECIMAL_PRECISION, 1 + p - s + digits), digits), nullable);
  return withNullability(T.decimal(Math.min(MAX_DECIMAL_PRECISION, 1 + p - s), 0), nullable);
}
