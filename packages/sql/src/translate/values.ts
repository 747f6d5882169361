import { SqlError, SqlErrorCode } from '../errors.ts';
import type { SqlType } from '../validate/types.ts';
import { asDecimal } from '../validate/types.ts';

/** Run-time values of Flink's SQL types (see validate/types.ts for what each type's value is). */

const TEN = 10n;

/** An unscaled DECIMAL moved from one scale to another, rounding HALF_UP as Flink does. */
export function rescale(unscaled: bigint, from: number, to: number): bigint {
  if (to >= from) return unscaled * TEN ** BigInt(to - from);
  const divisor = TEN ** BigInt(from - to);
  const quotient = unscaled / divisor;
  const remainder = unscaled % divisor;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice >= divisor) return quotient + (unscaled < 0n ? -1n : 1n);
  return quotient;
}

/** A numeric value of `from` as a number (DOUBLE, INT, BIGINT) or an unscaled DECIMAL of `to`. */
export function convertNumber(value: unknown, from: SqlType, to: SqlType): unknown {
  if (value === null) return null;
  if (to.root === 'DECIMAL') {
    if (from.root === 'DECIMAL') return rescale(value as bigint, from.scale!, to.scale!);
    if (from.root === 'DOUBLE') return decimalFromString(String(value), to.scale!);
    return BigInt(value as number) * TEN ** BigInt(to.scale!);
  }
  const n = from.root === 'DECIMAL' ? decimalToNumber(value as bigint, from.scale!) : (value as number);
  if (to.root === 'INT' || to.root === 'BIGINT') return Math.trunc(n);
  return n;
}

export function decimalToNumber(unscaled: bigint, scale: number): number {
  return Number(decimalToString(unscaled, scale));
}

export function decimalToString(unscaled: bigint, scale: number): string {
  if (scale === 0) return unscaled.toString();
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

export function decimalFromString(text: string, scale: number): bigint {
  const match = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (match === null || (match[2] === '' && (match[3] ?? '') === '')) throw invalid(text, `DECIMAL(_, ${scale})`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = BigInt(`${whole}${fraction}` || '0');
  const unscaled = rescale(digits, fraction.length - Number(exponent), scale);
  return sign === '-' ? -unscaled : unscaled;
}

function invalid(text: string, type: string): SqlError {
  return new SqlError(SqlErrorCode.SQL_INVALID_VALUE, `'${text}' is not a value of ${type}`);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** 'yyyy-MM-dd HH:mm:ss.SSS' (UTC). */
export function formatTimestamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

export function formatDate(days: number): string {
  return formatTimestamp(days * 86_400_000).slice(0, 10);
}

/** 'yyyy-MM-dd[ HH:mm:ss[.SSS]]' or 'yyyy-MM-ddTHH:mm:ss...' (UTC) as epoch milliseconds. */
export function parseTimestamp(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?Z?$/.exec(text.trim());
  if (match === null) throw invalid(text, 'TIMESTAMP(3)');
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0'] = match;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3)));
}

/** A value as text, as Flink prints it (print sink, CSV): decimals with their scale, timestamps 'yyyy-MM-dd HH:mm:ss.SSS'. */
export function formatValue(value: unknown, type: SqlType): string {
  if (value === null || value === undefined) return 'NULL';
  switch (type.root) {
    case 'DECIMAL':
      return decimalToString(value as bigint, type.scale!);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return formatTimestamp(value as number);
    case 'DATE':
      return formatDate(value as number);
    case 'BOOLEAN':
      return value ? 'TRUE' : 'FALSE';
    default:
      return String(value);
  }
}

/** Text (a CSV field, a CAST from STRING) as a value of `type`. */
export function parseValue(text: string, type: SqlType): unknown {
  switch (type.root) {
    case 'STRING':
      return text;
    case 'BOOLEAN': {
      const t = text.trim().toUpperCase();
      if (t === 'TRUE' || t === 'FALSE') return t === 'TRUE';
      throw invalid(text, 'BOOLEAN');
    }
    case 'INT':
    case 'BIGINT': {
      const n = Number(text.trim());
      if (!Number.isSafeInteger(n) || text.trim() === '') throw invalid(text, type.root);
      return n;
    }
    case 'DOUBLE': {
      const n = Number(text.trim());
      if (Number.isNaN(n) || text.trim() === '') throw invalid(text, 'DOUBLE');
      return n;
    }
    case 'DECIMAL':
      return decimalFromString(text, asDecimal(type).scale);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return parseTimestamp(text);
    case 'DATE':
      return Math.floor(parseTimestamp(text) / 86_400_000);
    default:
      throw invalid(text, type.root);
  }
}
