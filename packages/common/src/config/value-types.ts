import { DURATION_UNITS, parseDuration } from './duration.ts';
import { MEMORY_UNITS, parseMemorySize } from './memory-size.ts';
import type { ConfigOption, ConfigType } from './options.ts';

/** What each type accepts, worded for error messages. */
export const ACCEPTS: Readonly<Record<ConfigType, string>> = {
  string: 'a string',
  port: 'a port number from 0 to 65535',
  portRange: 'a port number from 1 to 65535, a range of them such as 9249-9260, or empty',
  int: 'a whole number',
  positiveInt: 'a whole number of 1 or more',
  duration: `a duration: a whole number of milliseconds or a number with a unit (${DURATION_UNITS.join(', ')}), e.g. 500ms, 10s, 2min, 1h`,
  memory: `a size: a whole number of bytes or a number with a unit (${MEMORY_UNITS.join(', ')}; 1kb is 1024 bytes), e.g. 512kb, 64mb, 1gb`,
  number: 'a number of 0 or more, e.g. 1.5',
  boolean: 'true or false',
  enum: 'one of the listed values',
};

/** What a key accepts, worded for error messages: its type's wording, or its values for an enum. */
export function accepts(option: ConfigOption): string {
  return option.type === 'enum' ? `one of ${(option.values ?? []).join(', ')}` : ACCEPTS[option.type];
}

/**
 * The value `raw` stands for as `type`, or undefined when `type` does not accept it. YAML
 * gives numbers and booleans, the environment and `-D` give strings; both are accepted where
 * the text means the same.
 */
export function parseValue(type: ConfigType, raw: unknown, values: readonly string[] = []): string | number | boolean | undefined {
  if (type === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    return raw === 'true' ? true : raw === 'false' ? false : undefined;
  }
  if (type === 'enum') return typeof raw === 'string' && values.includes(raw) ? raw : undefined;
  if (type === 'number') {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  }
  if (type === 'portRange') return typeof raw === 'number' || typeof raw === 'string' ? parsePortRangeText(String(raw)) : undefined;
  if (type === 'string') return typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
  if (type === 'duration' || type === 'memory') {
    if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw >= 0 ? raw : undefined;
    if (typeof raw !== 'string') return undefined;
    return type === 'duration' ? parseDuration(raw) : parseMemorySize(raw);
  }
  const n = parseInteger(raw);
  if (n === undefined) return undefined;
  if (type === 'port') return n >= 0 && n <= 65_535 ? n : undefined;
  if (type === 'positiveInt') return n >= 1 ? n : undefined;
  return n;
}

function parseInteger(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : undefined;
  if (typeof raw !== 'string' || !/^\s*-?\d+\s*$/.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The text of a port range, normalized (`9249`, `9249-9260`, or '' for none), or undefined when it is not one. */
function parsePortRangeText(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const range = parsePortRange(trimmed);
  return range === undefined ? undefined : range.first === range.last ? String(range.first) : `${range.first}-${range.last}`;
}

/** The ports of `9249` or `9249-9260` (first ≤ last, 1 to 65535), or undefined when the text is not such a range. */
export function parsePortRange(text: string): { readonly first: number; readonly last: number } | undefined {
  const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(text.trim());
  if (match === null) return undefined;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  return first >= 1 && last <= 65_535 && first <= last ? { first, last } : undefined;
}
