import { createHash } from 'node:crypto';
import type { Rex } from '../logical/rex.ts';
import { DATE_PART_UNITS } from '../validate/builtin-functions.ts';
import { commonType, T, type SqlType } from '../validate/types.ts';
import { extractField } from './extract.ts';
import { convertNumber, formatTimestamp, rescale } from './values.ts';

/** A compiled expression: the value for one row (an array of field values). */
type Evaluator = (row: readonly unknown[]) => unknown;

const TEN = 10n;
const MS_PER_DAY = 86_400_000;

/** NULL on a NULL argument, else fn of the value. */
export function strict1(a: Evaluator, fn: (v: unknown) => unknown): Evaluator {
  return (row) => {
    const v = a(row);
    return v === null ? null : fn(v);
  };
}

/** NULL when any argument is NULL, else fn of the values. */
function strict(args: readonly Evaluator[], fn: (values: unknown[]) => unknown): Evaluator {
  return (row) => {
    const values = args.map((f) => f(row));
    return values.includes(null) ? null : fn(values);
  };
}

const FORMAT_LETTERS = /yyyy|MM|dd|HH|mm|ss|SSS/g;

/** Java's DateTimeFormatter letters Flink's DATE_FORMAT takes most: yyyy MM dd HH mm ss SSS (UTC). */
export function dateFormat(ms: number, format: string): string {
  const text = formatTimestamp(ms);
  const parts: Record<string, string> = { yyyy: text.slice(0, 4), MM: text.slice(5, 7), dd: text.slice(8, 10), HH: text.slice(11, 13), mm: text.slice(14, 16), ss: text.slice(17, 19), SSS: text.slice(20, 23) };
  return format.replace(FORMAT_LETTERS, (m) => parts[m]!);
}

/** Epoch milliseconds of `text` written in `format` (the letters of dateFormat, UTC), or NULL when it does not match. */
function parseFormatted(text: string, format: string): number | null {
  const letters: string[] = [];
  const source = format.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(FORMAT_LETTERS, (m) => {
    letters.push(m);
    return `(\\d{${m.length}})`;
  });
  const match = new RegExp(`^${source}$`).exec(text);
  if (match === null) return null;
  const field = (letter: string, fallback: number) => {
    const at = letters.indexOf(letter);
    return at < 0 ? fallback : Number(match[at + 1]);
  };
  return Date.UTC(field('yyyy', 1970), field('MM', 1) - 1, field('dd', 1), field('HH', 0), field('mm', 0), field('ss', 0), field('SSS', 0));
}

/** A double rounded to `digits` decimals HALF_UP on its shortest decimal form, as Java's BigDecimal does in Flink's ROUND. */
function roundDouble(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  const text = String(Math.abs(x));
  if (text.includes('e')) return digits >= 0 ? x : Math.sign(x) * roundInteger(Math.abs(Math.trunc(x)), digits);
  const [int, frac = ''] = text.split('.') as [string, string?];
  const unscaled = BigInt(int + frac);
  const rounded = rescale(unscaled, frac.length, Math.min(digits, frac.length));
  const scale = Math.min(digits, frac.length);
  const value = scale >= 0 ? Number(`${rounded / TEN ** BigInt(scale)}.${(rounded % TEN ** BigInt(scale)).toString().padStart(scale, '0')}`) : Number(rounded) * 10 ** -scale;
  return x < 0 ? -value : value;
}

/** An integer rounded HALF_UP to 10^-digits (digits < 0), or itself. */
function roundInteger(n: number, digits: number): number {
  if (digits >= 0) return n;
  const unit = 10 ** -digits;
  return Math.sign(n) * Math.floor(Math.abs(n) / unit + 0.5) * unit;
}

/** An unscaled DECIMAL of `scale` divided to scale 0, toward -infinity (floor) or +infinity (ceil). */
function decimalToInteger(unscaled: bigint, scale: number, up: boolean): bigint {
  const divisor = TEN ** BigInt(scale);
  const quotient = unscaled / divisor;
  const exact = quotient * divisor === unscaled;
  if (exact) return quotient;
  if (up) return unscaled > 0n ? quotient + 1n : quotient;
  return unscaled < 0n ? quotient - 1n : quotient;
}

function compareValues(a: unknown, b: unknown): number {
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}

const hex = (algorithm: string) => (v: unknown) => createHash(algorithm).update(v as string, 'utf8').digest('hex');

/**
 * The evaluator of a built-in of validate/builtin-functions.ts (Flink's semantics, NULL in,
 * NULL out unless said), or undefined when `op` is none of them.
 */
export function compileBuiltin(op: string, operands: readonly Rex[], args: readonly Evaluator[], type: SqlType): Evaluator | undefined {
  const [a, b] = args;
  const ta = operands[0]?.type;
  // Made once per expression, not per row: argument i as a double.
  const asDouble = (i: number) => {
    const t = operands[i]?.type;
    return (v: unknown) => convertNumber(v, t!, T.DOUBLE) as number;
  };
  const [x0, x1] = [asDouble(0), asDouble(1)];
  const unit = DATE_PART_UNITS[op];
  if (unit !== undefined) {
    const isDate = ta!.root === 'DATE';
    return strict1(a!, (v) => extractField(unit, v as number, isDate));
  }
  switch (op) {
    case 'ROUND': {
      const digits = b === undefined ? () => 0 : b;
      if (ta!.root === 'DECIMAL') {
        // inferRound took the digits from a literal (0 when left out) and gave the result's scale.
        const [from, to] = [ta!.scale!, type.scale!];
        const d = operands[1]?.kind === 'literal' ? (operands[1].value as number) : 0;
        // Rounded HALF_UP to 10^-d (a negative scale when d < 0), then written at the result's scale.
        return strict1(a!, (v) => (d >= 0 ? rescale(v as bigint, from, to) : rescale(v as bigint, from, d) * TEN ** BigInt(-d)));
      }
      return (row) => {
        const v = a!(row);
        const d = digits(row);
        if (v === null || d === null) return null;
        return ta!.root === 'DOUBLE' ? roundDouble(v as number, d as number) : roundInteger(v as number, d as number);
      };
    }
    case 'FLOOR':
    case 'CEIL':
    case 'CEILING': {
      const up = op !== 'FLOOR';
      if (ta!.root === 'DECIMAL') return strict1(a!, (v) => (type.scale === ta!.scale ? v : decimalToInteger(v as bigint, ta!.scale!, up)));
      return strict1(a!, (v) => (up ? Math.ceil(v as number) : Math.floor(v as number)));
    }
    case 'POWER':
      return strict(args, ([x, y]) => x0(x) ** x1(y));
    case 'SQRT':
      return strict1(a!, (v) => Math.sqrt(x0(v)));
    case 'EXP':
      return strict1(a!, (v) => Math.exp(x0(v)));
    case 'LN':
      return strict1(a!, (v) => Math.log(x0(v)));
    case 'LOG10':
      return strict1(a!, (v) => Math.log10(x0(v)));
    case 'LOG2':
      return strict1(a!, (v) => Math.log2(x0(v)));
    case 'LOG':
      // LOG(x) is the natural logarithm; LOG(base, x) Flink's logarithm of x to base.
      if (b === undefined) return strict1(a!, (v) => Math.log(x0(v)));
      return strict(args, ([base, x]) => Math.log(x1(x)) / Math.log(x0(base)));
    case 'SIGN':
      if (ta!.root === 'DECIMAL') return strict1(a!, (v) => ((v as bigint) > 0n ? 1n : (v as bigint) < 0n ? -1n : 0n) * TEN ** BigInt(ta!.scale!));
      return strict1(a!, (v) => Math.sign(v as number));
    case 'NULLIF': {
      const common = commonType(ta!, operands[1]!.type)!;
      return (row) => {
        const x = a!(row);
        const y = b!(row);
        if (x === null || y === null) return x;
        return compareValues(convertIfNumber(x, ta!, common), convertIfNumber(y, operands[1]!.type, common)) === 0 ? null : x;
      };
    }
    case 'GREATEST':
    case 'LEAST': {
      const sign = op === 'GREATEST' ? 1 : -1;
      return strict(args, (values) => {
        let best = convertIfNumber(values[0], operands[0]!.type, type);
        for (let i = 1; i < values.length; i++) {
          const v = convertIfNumber(values[i], operands[i]!.type, type);
          if (compareValues(v, best) * sign > 0) best = v;
        }
        return best;
      });
    }
    case 'LPAD':
    case 'RPAD':
      return strict(args, ([s, n, p]) => pad(s as string, n as number, p as string, op === 'LPAD'));
    case 'LTRIM':
      return strict1(a!, (s) => (s as string).replace(/^ +/, ''));
    case 'RTRIM':
      return strict1(a!, (s) => (s as string).replace(/ +$/, ''));
    case 'REVERSE':
      return strict1(a!, (s) => [...(s as string)].reverse().join(''));
    case 'INITCAP':
      // Flink's: a word is a run of letters and digits; its first character upper case, the rest lower.
      return strict1(a!, (s) => (s as string).toLowerCase().replace(/(^|[^\p{L}\p{N}])(\p{L})/gu, (_m, before: string, letter: string) => before + letter.toUpperCase()));
    case 'CHARACTER_LENGTH':
      return strict1(a!, (s) => [...(s as string)].length);
    case 'REPEAT':
      return strict(args, ([s, n]) => ((n as number) <= 0 ? '' : (s as string).repeat(n as number)));
    case 'LOCATE':
      return strict(args, ([needle, haystack, from = 1]) => (haystack as string).indexOf(needle as string, Math.max((from as number) - 1, 0)) + 1);
    case 'REGEXP_REPLACE': {
      const regex = lastRegex('g');
      return strict(args, ([s, pattern, replacement]) => {
        const compiled = regex(pattern as string);
        return compiled === null ? null : (s as string).replace(compiled, replacement as string);
      });
    }
    case 'REGEXP': {
      const regex = lastRegex('');
      return strict(args, ([s, pattern]) => regex(pattern as string)?.test(s as string) ?? null);
    }
    case 'MD5':
      return strict1(a!, hex('md5'));
    case 'SHA1':
      return strict1(a!, hex('sha1'));
    case 'SHA256':
      return strict1(a!, hex('sha256'));
    case 'TO_BASE64':
      return strict1(a!, (s) => Buffer.from(s as string, 'utf8').toString('base64'));
    case 'FROM_BASE64':
      return strict1(a!, (s) => Buffer.from(s as string, 'base64').toString('utf8'));
    case 'UNIX_TIMESTAMP':
      if (a === undefined) return () => Math.floor(Date.now() / 1000);
      return (row) => {
        const text = a(row);
        const format = b === undefined ? 'yyyy-MM-dd HH:mm:ss' : b(row);
        if (text === null || format === null) return null;
        const ms = parseFormatted(text as string, format as string);
        return ms === null ? null : Math.floor(ms / 1000);
      };
    case 'FROM_UNIXTIME':
      return (row) => {
        const seconds = a!(row);
        const format = b === undefined ? 'yyyy-MM-dd HH:mm:ss' : b(row);
        return seconds === null || format === null ? null : dateFormat((seconds as number) * 1000, format as string);
      };
    case 'TIMESTAMPDIFF': {
      const unit = (operands[0] as Extract<Rex, { kind: 'literal' }>).value as string;
      const [from, to] = [operands[1]!.type, operands[2]!.type].map((t) => (t.root === 'DATE' ? (v: unknown) => (v as number) * MS_PER_DAY : (v: unknown) => v as number));
      return strict(args.slice(1), ([a1, a2]) => timestampDiff(unit, from!(a1), to!(a2)));
    }
    case 'TIMESTAMPADD': {
      const unit = (operands[0] as Extract<Rex, { kind: 'literal' }>).value as string;
      const isDate = operands[2]!.type.root === 'DATE';
      return strict(args.slice(1), ([n, v]) => {
        const ms = timestampAdd(unit, n as number, isDate ? (v as number) * MS_PER_DAY : (v as number));
        return isDate ? Math.floor(ms / MS_PER_DAY) : ms;
      });
    }
    case 'NOW':
    case 'CURRENT_TIMESTAMP':
    case 'LOCALTIMESTAMP':
      // Evaluated per row, as Flink's streaming mode does (session time zone UTC: the same instant for both).
      return () => Date.now();
    case 'CURRENT_DATE':
      return () => Math.floor(Date.now() / MS_PER_DAY);
    default:
      return undefined;
  }
}

const UNIT_MS: Readonly<Record<string, number>> = { SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: MS_PER_DAY, WEEK: 7 * MS_PER_DAY };
const UNIT_MONTHS: Readonly<Record<string, number>> = { MONTH: 1, QUARTER: 3, YEAR: 12 };

/** A UTC instant `months` calendar months later, its day of month cut to the target month's last (Java's plusMonths). */
function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const [year, month] = [d.getUTCFullYear(), d.getUTCMonth() + months];
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const timeOfDay = ms - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return Date.UTC(year, month, Math.min(d.getUTCDate(), lastDay)) + timeOfDay;
}

/** Flink's TIMESTAMPADD: `n` units later (UTC), months by the calendar. */
function timestampAdd(unit: string, n: number, ms: number): number {
  const months = UNIT_MONTHS[unit];
  return months === undefined ? ms + n * UNIT_MS[unit]! : addMonths(ms, n * months);
}

/** Flink's TIMESTAMPDIFF: the whole units from `a` to `b`, toward zero; months by the calendar (a month is whole once b's day and time reach a's). */
function timestampDiff(unit: string, a: number, b: number): number {
  const months = UNIT_MONTHS[unit];
  if (months === undefined) return Math.trunc((b - a) / UNIT_MS[unit]!);
  const [da, db] = [new Date(a), new Date(b)];
  let whole = (db.getUTCFullYear() - da.getUTCFullYear()) * 12 + db.getUTCMonth() - da.getUTCMonth();
  const intoMonth = (d: Date, ms: number) => ms - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (whole > 0 && intoMonth(db, b) < intoMonth(da, a)) whole--;
  if (whole < 0 && intoMonth(db, b) > intoMonth(da, a)) whole++;
  return Math.trunc(whole / months);
}

function convertIfNumber(value: unknown, from: SqlType, to: SqlType): unknown {
  return to.root === 'DECIMAL' || to.root === 'DOUBLE' || to.root === 'INT' || to.root === 'BIGINT' ? convertNumber(value, from, to) : value;
}

/** Flink's LPAD/RPAD: NULL for a negative length or an empty pad that would be needed; the string cut to length when longer. */
function pad(s: string, length: number, padding: string, left: boolean): string | null {
  if (length < 0) return null;
  const chars = [...s];
  if (chars.length >= length) return chars.slice(0, length).join('');
  if (padding === '') return null;
  const fill = padding.repeat(Math.ceil((length - chars.length) / padding.length)).slice(0, length - chars.length);
  return left ? fill + s : s + fill;
}

/** compileRegex that keeps the last pattern's regex: a constant pattern (the usual case) compiles once, not per row. */
function lastRegex(flags: string): (pattern: string) => RegExp | null {
  let last: string | undefined;
  let regex: RegExp | null = null;
  return (pattern) => {
    if (pattern !== last) [last, regex] = [pattern, compileRegex(pattern, flags)];
    return regex;
  };
}

/** A Java regular expression as JavaScript reads it; NULL (Flink's answer) when it does not compile. */
function compileRegex(pattern: string, flags: string): RegExp | null {
  try {
    return new RegExp(pattern, flags);
  } catch {
    return null;
  }
}
