import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';

/**
 * Flink's SQL types that Weir's SQL has, and the JavaScript value of each at run time:
 * BOOLEAN boolean; INT, BIGINT, DOUBLE number (BIGINT exact up to 2^53); DECIMAL(p, s) a bigint,
 * the unscaled value (123.45 in DECIMAL(10, 2) is 12345n), so sums and comparisons are exact;
 * STRING (VARCHAR(n), CHAR(n)) string; TIMESTAMP(3) and TIMESTAMP_LTZ(3) milliseconds since
 * the epoch (UTC); DATE days since the epoch; INTERVAL (day-time) milliseconds; ROW<..> an
 * array of its fields' values (read with `column.field`). NULL is null.
 */
export type TypeRoot = 'BOOLEAN' | 'INT' | 'BIGINT' | 'DOUBLE' | 'DECIMAL' | 'STRING' | 'TIMESTAMP' | 'TIMESTAMP_LTZ' | 'DATE' | 'INTERVAL' | 'ROW' | 'NULL';

export interface SqlType {
  readonly root: TypeRoot;
  readonly nullable: boolean;
  /** DECIMAL's precision, TIMESTAMP's fractional second digits. */
  readonly precision?: number;
  readonly scale?: number;
  /** An event-time attribute (Flink's *ROWTIME*): the column a table's WATERMARK is declared on. */
  readonly rowtime?: boolean;
  /** A processing-time attribute (Flink's *PROCTIME*): PROCTIME()'s column, the wall clock when it is read. */
  readonly proctime?: boolean;
  /** ROW's fields, in order. */
  readonly fields?: readonly { readonly name: string; readonly type: SqlType }[];
}

export const MAX_DECIMAL_PRECISION = 38;

export const T = {
  BOOLEAN: { root: 'BOOLEAN', nullable: true } as SqlType,
  INT: { root: 'INT', nullable: true } as SqlType,
  BIGINT: { root: 'BIGINT', nullable: true } as SqlType,
  DOUBLE: { root: 'DOUBLE', nullable: true } as SqlType,
  STRING: { root: 'STRING', nullable: true } as SqlType,
  DATE: { root: 'DATE', nullable: true } as SqlType,
  NULL: { root: 'NULL', nullable: true } as SqlType,
  INTERVAL: { root: 'INTERVAL', nullable: false } as SqlType,
  decimal: (precision: number, scale: number): SqlType => ({ root: 'DECIMAL', nullable: true, precision, scale }),
  timestamp: (precision = 3): SqlType => ({ root: 'TIMESTAMP', nullable: true, precision }),
  timestampLtz: (precision = 3): SqlType => ({ root: 'TIMESTAMP_LTZ', nullable: true, precision }),
};

export function withNullability(type: SqlType, nullable: boolean): SqlType {
  return type.nullable === nullable ? type : { ...type, nullable };
}

/** The same type without its time attribute (event or processing time): what an expression over a time attribute computes. */
export function withoutRowtime(type: SqlType): SqlType {
  if (type.rowtime !== true && type.proctime !== true) return type;
  const { rowtime: _rowtime, proctime: _proctime, ...rest } = type;
  return rest;
}

const SUPPORTED = 'BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL(p, s), VARCHAR(n) / STRING, TIMESTAMP(3), TIMESTAMP_LTZ(3), DATE, ROW<name type, ..>';

/** A type as written in DDL or CAST (its tokens, space-separated), such as `DECIMAL ( 10 , 2 )` or `ROW < id BIGINT , name VARCHAR >`. */
export function parseType(text: string, position?: SqlPosition): SqlType {
  const row = /^\s*ROW\s*[<(]([\s\S]*)[>)]\s*(NOT\s+NULL)?\s*$/i.exec(text);
  if (row !== null) return withNullability(rowType(row[1]!, position), row[2] === undefined);
  const compact = text.toUpperCase().replace(/\s+/g, '');
  const notNull = compact.endsWith('NOTNULL');
  const body = notNull ? compact.slice(0, -'NOTNULL'.length) : compact;
  const match = /^([A-Z_]+)(?:\((\d+)(?:,(\d+))?\))?(WITHLOCALTIMEZONE|WITHOUTTIMEZONE)?$/.exec(body);
  const type = match === null ? undefined : typeOf(match[1]!, match[2], match[3], match[4], position);
  if (type === undefined) {
    throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `type ${text} is not supported; Weir's SQL has ${SUPPORTED}`, position);
  }
  return withNullability(type, !notNull);
}

function typeOf(name: string, first: string | undefined, second: string | undefined, zone: string | undefined, position?: SqlPosition): SqlType | undefined {
  switch (name) {
    case 'BOOLEAN':
      return T.BOOLEAN;
    case 'INT':
    case 'INTEGER':
      return T.INT;
    case 'BIGINT':
      return T.BIGINT;
    case 'DOUBLE':
      return T.DOUBLE;
    case 'DECIMAL':
    case 'DEC':
    case 'NUMERIC': {
      const precision = first === undefined ? 10 : Number(first);
      const scale = second === undefined ? 0 : Number(second);
      if (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale > precision) {
        throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `DECIMAL(${precision}, ${scale}) is not a valid type: precision is 1 to 38 and scale 0 to the precision`, position);
      }
      return T.decimal(precision, scale);
    }
    case 'STRING':
    case 'VARCHAR':
    case 'CHAR':
      return T.STRING;
    case 'DATE':
      return T.DATE;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ': {
      // Flink's default precision is 6; Weir's timestamps are milliseconds.
      const precision = first === undefined ? 6 : Number(first);
      if (precision !== 3) {
        throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${name}(${precision}) is not supported: Weir's timestamps are milliseconds, write ${name}(3)`, position);
      }
      return name === 'TIMESTAMP_LTZ' || zone === 'WITHLOCALTIMEZONE' ? T.timestampLtz(3) : T.timestamp(3);
    }
    default:
      return undefined;
  }
}

/** `ROW<a INT, b ROW<c STRING>>`'s inside: fields split at top-level commas, each a name (maybe backquoted) and a type. */
function rowType(inside: string, position?: SqlPosition): SqlType {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of inside) {
    if (ch === '<' || ch === '(') depth++;
    if (ch === '>' || ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim() !== '') parts.push(current);
  const fields = parts.map((part) => {
    const match = /^\s*(`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_$]*)\s+([\s\S]+)$/.exec(part);
    if (match === null) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `ROW field '${part.trim()}' is not 'name type'`, position);
    const name = match[1]!.startsWith('`') ? match[1]!.slice(1, -1).replaceAll('``', '`') : match[1]!;
    return { name, type: parseType(match[2]!, position) };
  });
  return { root: 'ROW', nullable: true, fields };
}

/** As Flink prints a type (DESCRIBE, EXPLAIN, errors): `DECIMAL(10, 2)`, `TIMESTAMP(3) *ROWTIME*`, `INT NOT NULL`. */
export function typeToString(type: SqlType): string {
  let text: string = type.root;
  if (type.root === 'DECIMAL') text = `DECIMAL(${type.precision}, ${type.scale})`;
  else if (type.root === 'TIMESTAMP' || type.root === 'TIMESTAMP_LTZ') text = `${type.root}(${type.precision ?? 3})`;
  else if (type.root === 'INTERVAL') text = 'INTERVAL SECOND(3)';
  else if (type.root === 'ROW') text = `ROW<${type.fields!.map((f) => `\`${f.name}\` ${typeToString(f.type)}`).join(', ')}>`;
  if (!type.nullable && type.root !== 'NULL' && type.root !== 'INTERVAL') text += ' NOT NULL';
  if (type.rowtime === true) text += ' *ROWTIME*';
  if (type.proctime === true) text += ' *PROCTIME*';
  return text;
}

export function isNumeric(type: SqlType): boolean {
  return type.root === 'INT' || type.root === 'BIGINT' || type.root === 'DOUBLE' || type.root === 'DECIMAL';
}

export function isTimestamp(type: SqlType): boolean {
  return type.root === 'TIMESTAMP' || type.root === 'TIMESTAMP_LTZ';
}

/** An exact numeric type as a DECIMAL: INT is DECIMAL(10, 0), BIGINT DECIMAL(19, 0). */
export function asDecimal(type: SqlType): { precision: number; scale: number } {
  if (type.root === 'DECIMAL') return { precision: type.precision!, scale: type.scale! };
  return { precision: type.root === 'INT' ? 10 : 19, scale: 0 };
}

/**
 * The type both operands of arithmetic or a comparison are brought to (Flink's rules, in
 * short): DOUBLE wins; else DECIMAL with the larger scale and enough integer digits; else the
 * wider of INT and BIGINT. Undefined when the two do not mix (a STRING and an INT).
 */
export function commonType(a: SqlType, b: SqlType): SqlType | undefined {
  const nullable = a.nullable || b.nullable;
  if (a.root === 'NULL') return withNullability(withoutRowtime(b), true);
  if (b.root === 'NULL') return withNullability(withoutRowtime(a), true);
  if (isNumeric(a) && isNumeric(b)) {
    if (a.root === 'DOUBLE' || b.root === 'DOUBLE') return withNullability(T.DOUBLE, nullable);
    if (a.root === 'DECIMAL' || b.root === 'DECIMAL') {
      const x = asDecimal(a);
      const y = asDecimal(b);
      const scale = Math.max(x.scale, y.scale);
      const precision = Math.min(MAX_DECIMAL_PRECISION, Math.max(x.precision - x.scale, y.precision - y.scale) + scale);
      return withNullability(T.decimal(precision, scale), nullable);
    }
    return withNullability(a.root === 'BIGINT' || b.root === 'BIGINT' ? T.BIGINT : T.INT, nullable);
  }
  if (isTimestamp(a) && isTimestamp(b)) return withNullability(a.root === b.root ? withoutRowtime(a) : T.timestampLtz(3), nullable);
  if (a.root === b.root) return withNullability(withoutRowtime(a), nullable);
  return undefined;
}
