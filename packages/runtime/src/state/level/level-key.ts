import type { KeyGroupRange } from '@weir/common';

/**
 * Keys of the LevelDB backend: key group (2 bytes, big-endian), the state name (UTF-8), a NUL,
 * then the MessagePack of the normalized key. Key groups first, so a key group range is one
 * key range (rescaling copies it, savepoints iterate it group by group); the name before the
 * key, so within a group the states come in name order as the canonical format writes them.
 */
export function statePrefix(keyGroup: number, name: Uint8Array): Buffer {
  const prefix = Buffer.allocUnsafe(name.byteLength + 3);
  prefix[0] = keyGroup >>> 8;
  prefix[1] = keyGroup & 0xff;
  prefix.set(name, 2);
  prefix[name.byteLength + 2] = 0;
  return prefix;
}

export function stateKey(keyGroup: number, name: Uint8Array, serializedKey: Uint8Array): Buffer {
  const prefix = statePrefix(keyGroup, name);
  return Buffer.concat([prefix, serializedKey], prefix.byteLength + serializedKey.byteLength);
}

export interface ParsedStateKey {
  readonly keyGroup: number;
  readonly name: string;
  readonly serializedKey: Buffer;
}

export function parseStateKey(key: Buffer): ParsedStateKey {
  const end = key.indexOf(0, 2);
  if (key.byteLength < 3 || end < 0) throw new Error(`a LevelDB state key of ${key.byteLength} bytes has no state name`);
  return { keyGroup: (key[0]! << 8) | key[1]!, name: key.toString('utf8', 2, end), serializedKey: key.subarray(end + 1) };
}

/** The bounds of every key of a key group range: `gte` the first group's, `lt` the group after the last one's. */
export function keyGroupBounds(range: KeyGroupRange): { gte: Buffer; lt: Buffer } {
  const after = range.end + 1;
  return { gte: Buffer.from([range.start >>> 8, range.start & 0xff]), lt: Buffer.from([after >>> 8, after & 0xff]) };
}

/** No state key starts with 0xffff (key groups stay below 32768): compacting this empty range flushes only the memtable. */
export const MEMTABLE_FLUSH_KEY = Buffer.from([0xff, 0xff, 0xff]);

/**
 * The MessagePack of a normalized key as a latin1 string, what `packState(key)` gives, made
 * without a buffer for the usual keys (see `shortPackedLatin1`); anything else goes through
 * `pack`. Keys of the write cache are strings, and a record's key is built once per state.
 */
export function packedKeyLatin1(key: unknown, pack: (value: unknown) => Uint8Array): string {
  const short = shortPackedLatin1(key);
  if (short !== undefined) return short;
  const packed = pack(key);
  return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength).toString('latin1');
}

/**
 * The MessagePack of integers of up to 32 bits and of ASCII strings shorter than 32
 * characters (whose UTF-8 bytes are their characters) as a latin1 string, as `packState`
 * writes them; undefined for any other value. A write batch puts such a value and its key in
 * one buffer.
 */
export function shortPackedLatin1(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (value >>> 0 === value) {
      if (value < 0x80) return String.fromCharCode(value);
      if (value < 0x100) return String.fromCharCode(0xcc, value);
      if (value < 0x10000) return String.fromCharCode(0xcd, value >>> 8, value & 0xff);
      return String.fromCharCode(0xce, value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
    }
    if (value >> 0 === value && value >= -0x20) return String.fromCharCode(0x100 + value);
  } else if (typeof value === 'string' && value.length < 0x20 && isAscii(value)) {
    return String.fromCharCode(0xa0 | value.length) + value;
  }
  return undefined;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}
