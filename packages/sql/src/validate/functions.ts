import { closest } from 'fastest-levenshtein';
import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';
import type { Rex } from '../logical/rex.ts';
import { TIME_UNITS } from '../parse/extract.ts';
import { asDecimal, commonType, isNumeric, isTimestamp, MAX_DECIMAL_PRECISION, T, typeToString, withNullability, withoutRowtime, type SqlType } from './types.ts';

/** Aggregate functions, with the type each returns for its argument's (Flink's). */
export const AGGREGATES = new Set(['COUNT', 'SUM', 'MIN', 'MAX', 'AVG']);

type Inference = (args: readonly SqlType[], fail: (expected: string) => never) => SqlType;

const anyNullable = (args: readonly SqlType[]): boolean => args.some((a) => a.nullable);
const nullableIfAny = (type: SqlType, args: readonly SqlType[]): SqlType => withNullability(type, anyNullable(args));

function arithmetic(op: string): Inference {
  return (args, fail) => {
    const [a, b] = args as [SqlType, SqlType];
    if ((op === '+' || op === '-') && isTimestamp(a) && b.root === 'INTERVAL') return nullableIfAny(withoutRowtime(a), args);
    if (op === '+' && a.root === 'INTERVAL' && isTimestamp(b)) return nullableIfAny(withoutRowtime(b), args);
    if (!(isNumeric(a) || a.root === 'NULL') || !(isNumeric(b) || b.root === 'NULL')) fail(`<NUMERIC> ${op} <NUMERIC>${op === '+' || op === '-' ? `, <TIMESTAMP> ${op} <INTERVAL>` : ''}`);
    const common = commonType(a, b)!;
    if (common.root !== 'DECIMAL') return common;
    const x = asDecimal(a.root === 'NULL' ? b : a);
    const y = asDecimal(b.root === 'NULL' ? a : b);
    // Flink's (Calcite's) DECIMAL result types, capped at 38 digits.
    const cap = (precision: number, scale: number): SqlType =>
      withNullability(T.decimal(Math.min(MAX_DECIMAL_PRECISION, precision), Math.min(scale, MAX_DECIMAL_PRECISION)), common.nullable);
    if (op === '*') return cap(x.precision + y.precision, x.scale + y.scale);
    if (op === '/') {
      const scale = Math.max(6, x.scale + y.precision + 1);
      return cap(x.precision - x.scale + y.scale + scale, scale);
    }
    if (op === '%') return cap(Math.min(x.precision - x.scale, y.precision - y.scale) + Math.max(x.scale, y.scale), Math.max(x.scale, y.scale));
    return cap(Math.max(x.precision - x.scale, y.precision - y.scale) + Math.max(x.scale, y.scale) + 1, Math.max(x.scale, y.scale));
  };
}

const comparison: Inference = (args, fail) => {
  if (commonType(args[0]!, args[1]!) === undefined) fail('<COMPARABLE> op <COMPARABLE> of one type family (numbers, strings, timestamps, ...)');
  return nullableIfAny(T.BOOLEAN, args);
};

const booleans: Inference = (args, fail) => {
  if (!args.every((a) => a.root === 'BOOLEAN' || a.root === 'NULL')) fail('<BOOLEAN>');
  return nullableIfAny(T.BOOLEAN, args);
};

function strings(result: SqlType, expected: string, check: (args: readonly SqlType[]) => boolean): Inference {
  return (args, fail) => {
    if (!check(args)) fail(expected);
    return nullableIfAny(result, args);
  };
}

const isString = (t: SqlType | undefined): boolean => t !== undefined && (t.root === 'STRING' || t.root === 'NULL');
const isInteger = (t: SqlType | undefined): boolean => t !== undefined && (t.root === 'INT' || t.root === 'BIGINT' || t.root === 'NULL');

const SCALARS: Record<string, Inference> = {
  '+': arithmetic('+'),
  '-': arithmetic('-'),
  '*': arithmetic('*'),
  '/': arithmetic('/'),
  '%': arithmetic('%'),
  MOD: arithmetic('%'),
  NEGATE: (args, fail) => (isNumeric(args[0]!) ? withoutRowtime(args[0]!) : fail('-<NUMERIC>')),
  ABS: (args, fail) => (args.length === 1 && isNumeric(args[0]!) ? withoutRowtime(args[0]!) : fail('ABS(<NUMERIC>)')),
  '=': comparison,
  '<>': comparison,
  '<': comparison,
  '<=': comparison,
  '>': comparison,
  '>=': comparison,
  BETWEEN: (args, fail) => {
    if (commonType(args[0]!, args[1]!) === undefined || commonType(args[0]!, args[2]!) === undefined) fail('<COMPARABLE> BETWEEN <COMPARABLE> AND <COMPARABLE>');
    return nullableIfAny(T.BOOLEAN, args);
  },
  IN: (args, fail) => {
    if (!args.slice(1).every((a) => commonType(args[0]!, a) !== undefined)) fail('<T> IN (<T>, ...)');
    return nullableIfAny(T.BOOLEAN, args);
  },
  AND: booleans,
  OR: booleans,
  NOT: booleans,
  'IS NULL': () => withNullability(T.BOOLEAN, false),
  'IS NOT NULL': () => withNullability(T.BOOLEAN, false),
  'IS TRUE': (args, fail) => (args[0]!.root === 'BOOLEAN' ? withNullability(T.BOOLEAN, false) : fail('<BOOLEAN> IS TRUE')),
  'IS FALSE': (args, fail) => (args[0]!.root === 'BOOLEAN' ? withNullability(T.BOOLEAN, false) : fail('<BOOLEAN> IS FALSE')),
  LIKE: strings(T.BOOLEAN, '<STRING> LIKE <STRING>', (a) => isString(a[0]) && isString(a[1])),
  '||': strings(T.STRING, '<STRING> || <STRING>', (a) => isString(a[0]) && isString(a[1])),
  CONCAT: strings(T.STRING, 'CONCAT(<STRING>, ...)', (a) => a.length > 0 && a.every(isString)),
  UPPER: strings(T.STRING, 'UPPER(<STRING>)', (a) => a.length === 1 && isString(a[0])),
  LOWER: strings(T.STRING, 'LOWER(<STRING>)', (a) => a.length === 1 && isString(a[0])),
  TRIM: strings(T.STRING, 'TRIM(<STRING>)', (a) => a.length === 1 && isString(a[0])),
  CHAR_LENGTH: strings(T.INT, 'CHAR_LENGTH(<STRING>)', (a) => a.length === 1 && isString(a[0])),
  SUBSTRING: strings(T.STRING, 'SUBSTRING(<STRING>, <INTEGER>[, <INTEGER>])', (a) => (a.length === 2 || a.length === 3) && isString(a[0]) && a.slice(1).every(isInteger)),
  REPLACE: strings(T.STRING, 'REPLACE(<STRING>, <STRING>, <STRING>)', (a) => a.length === 3 && a.every(isString)),
  // Flink's: NULL when the pattern does not match (or the group did not take part); group 1 by default.
  REGEXP_EXTRACT: (args, fail) =>
    (args.length === 2 || args.length === 3) && isString(args[0]) && isString(args[1]) && (args.length === 2 || isInteger(args[2]))
      ? withNullability(T.STRING, true)
      : fail('REGEXP_EXTRACT(<STRING>, <STRING> regex[, <INTEGER> group])'),
  // Flink's: the index-th (from 0) piece of the string split at every separator; NULL past the end.
  SPLIT_INDEX: (args, fail) =>
    args.length === 3 && isString(args[0]) && isString(args[1]) && isInteger(args[2]) ? withNullability(T.STRING, true) : fail('SPLIT_INDEX(<STRING>, <STRING> separator, <INTEGER> index)'),
  COALESCE: (args, fail) => {
    let type: SqlType | undefined = args[0];
    for (const a of args.slice(1)) type = type === undefined ? undefined : commonType(type, a);
    if (type === undefined) fail('COALESCE(<T>, <T>, ...) with arguments of one type family');
    return withNullability(type!, args.every((a) => a.nullable));
  },
  IF: (args, fail) => {
    const type = args.length === 3 && args[0]!.root === 'BOOLEAN' ? commonType(args[1]!, args[2]!) : undefined;
    return type ?? fail('IF(<BOOLEAN>, <T>, <T>)');
  },
  // Flink's PROCTIME(): a processing-time attribute, TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*.
  PROCTIME: (args, fail) => (args.length === 0 ? { ...withNullability(T.timestampLtz(3), false), proctime: true } : fail('PROCTIME()')),
  TO_TIMESTAMP_LTZ: (args, fail) => (args.length === 2 && isNumeric(args[0]!) && isInteger(args[1]) ? nullableIfAny(T.timestampLtz(3), args) : fail('TO_TIMESTAMP_LTZ(<NUMERIC> epoch, <INTEGER> precision 0 or 3)')),
  TO_TIMESTAMP: (args, fail) => (args.length === 1 && isString(args[0]) ? withNullability(T.timestamp(3), true) : fail("TO_TIMESTAMP(<STRING> 'yyyy-MM-dd HH:mm:ss[.SSS]')")),
  DATE_FORMAT: (args, fail) => (args.length === 2 && isTimestamp(args[0]!) && isString(args[1]) ? nullableIfAny(T.STRING, args) : fail('DATE_FORMAT(<TIMESTAMP>, <STRING> format)')),
};

/** HOUR, MINUTE, SECOND of a timestamp (Flink's, each EXTRACT(unit FROM ts)): BIGINT. */
const timeField = (name: string): Inference => (args, fail) => (args.length === 1 && isTimestamp(args[0]!) ? nullableIfAny(T.BIGINT, args) : fail(`${name}(<TIMESTAMP>)`));
SCALARS.HOUR = timeField('HOUR');
SCALARS.MINUTE = timeField('MINUTE');
SCALARS.SECOND = timeField('SECOND');

/**
 * EXTRACT(unit FROM x), which the parser made `EXTRACT('<UNIT>', x)`: BIGINT, as Flink's, of a
 * TIMESTAMP or TIMESTAMP_LTZ (read in the session time zone, UTC), or of a DATE for the units
 * of a date (a DATE has no hour). The unit must be a literal of TIME_UNITS.
 */
export function inferExtract(args: readonly Rex[], pos: SqlPosition): SqlType {
  const [unitRex, value] = args;
  const unit = unitRex?.kind === 'literal' && typeof unitRex.value === 'string' ? unitRex.value : undefined;
  const applies = unit !== undefined && value !== undefined && TIME_UNITS[unit] !== undefined && (isTimestamp(value.type) || value.type.root === 'NULL' || (value.type.root === 'DATE' && TIME_UNITS[unit] === 'date'));
  if (!applies) {
    const shown = value === undefined ? '' : `<${typeToString(withoutRowtime(value.type))}>`;
    throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Cannot apply 'EXTRACT' to ${unit ?? '?'} of ${shown}. Supported form(s): EXTRACT(<unit> FROM <TIMESTAMP> | <TIMESTAMP_LTZ>), EXTRACT(<date unit> FROM <DATE>) with the date units ${Object.keys(TIME_UNITS).filter((u) => TIME_UNITS[u] === 'date').join(', ')}`, pos);
  }
  return withNullability(T.BIGINT, value.type.nullable);
}

export function isBuiltIn(name: string): boolean {
  return SCALARS[name] !== undefined;
}

/** Every function a query may call, for "did you mean". */
export const FUNCTION_NAMES: readonly string[] = [...Object.keys(SCALARS).filter((n) => /^[A-Z_]+$/.test(n)), ...AGGREGATES, 'CAST', 'CASE'];

/** The result type of a scalar function or operator `name` over `args`, or a typed error at `pos`. */
export function inferCall(name: string, args: readonly SqlType[], pos: SqlPosition): SqlType {
  const inference = SCALARS[name];
  if (inference === undefined) throw unknownFunction(name, pos);
  const fail = (expected: string): never => {
    const shown = args.map((a) => `<${typeToString(withoutRowtime(a))}>`).join(', ');
    throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Cannot apply '${name}' to arguments of type ${shown}. Supported form(s): ${expected}`, pos);
  };
  return inference(args, fail);
}

export function unknownFunction(name: string, pos: SqlPosition, userFunctions: readonly string[] = []): SqlError {
  const suggestion = closest(name, [...FUNCTION_NAMES, ...userFunctions]);
  return new SqlError(SqlErrorCode.SQL_UNKNOWN_FUNCTION, `No match found for function signature ${name}; did you mean ${suggestion}?`, pos);
}

/** The result type of an aggregate function over its argument (undefined for COUNT(*)), Flink's. */
export function inferAggregate(name: string, arg: SqlType | undefined, pos: SqlPosition): SqlType {
  if (name === 'COUNT') return withNullability(T.BIGINT, false);
  if (arg === undefined) throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `${name} takes one argument, as in ${name}(price)`, pos);
  if (name === 'MIN' || name === 'MAX') return withNullability(withoutRowtime(arg), true);
  if (!isNumeric(arg)) {
    throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Cannot apply '${name}' to arguments of type <${typeToString(withoutRowtime(arg))}>. Supported form(s): ${name}(<NUMERIC>)`, pos);
  }
  if (arg.root === 'DECIMAL') return withNullability(T.decimal(MAX_DECIMAL_PRECISION, name === 'AVG' ? Math.max(6, arg.scale!) : arg.scale!), true);
  return withNullability(arg, true);
}
