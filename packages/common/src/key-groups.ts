/**
 * Key groups, as in Flink's KeyGroupRangeAssignment: a key belongs to
 * `murmur3_32(serialized key) mod maxParallelism`, and subtask i of p owns the contiguous
 * range of key groups g with floor(g * p / maxParallelism) = i. Keyed state is kept per key
 * group, so a new parallelism only moves whole key groups.
 */

export const MAX_MAX_PARALLELISM = 32768;

/** Flink's default: min(max(roundUpToPowerOfTwo(p + p/2), 128), 32768). */
export function defaultMaxParallelism(parallelism: number): number {
  return Math.min(Math.max(roundUpToPowerOfTwo(parallelism + Math.floor(parallelism / 2)), 128), MAX_MAX_PARALLELISM);
}

function roundUpToPowerOfTwo(x: number): number {
  let p = 1;
  while (p < x) p *= 2;
  return p;
}

export interface KeyGroupRange {
  /** First key group, inclusive. */
  readonly start: number;
  /** Last key group, inclusive; `end < start` means empty. */
  readonly end: number;
}

export function keyGroupRangeForSubtask(maxParallelism: number, parallelism: number, subtask: number): KeyGroupRange {
  return {
    start: Math.floor((subtask * maxParallelism + parallelism - 1) / parallelism),
    end: Math.floor(((subtask + 1) * maxParallelism - 1) / parallelism),
  };
}

export function subtaskForKeyGroup(maxParallelism: number, parallelism: number, keyGroup: number): number {
  return Math.floor((keyGroup * parallelism) / maxParallelism);
}

/**
 * `hashKey(key) % maxParallelism` in int32 arithmetic: the unsigned hash does not fit an
 * int32, and as a double it takes a floating-point modulo (a call to fmod) and, where the
 * hash is not inlined, a heap number per record. (2q + r) mod m = (2(q mod m) + r) mod m.
 * A power of two (the default 128, and what most jobs set) is the hash's low bits: a mask
 * instead of two integer divisions, some 15 ns of every keyBy record.
 */
export function keyGroupForKey(key: unknown, maxParallelism: number): number {
  const h = hashKeyInt32(key);
  const mask = maxParallelism - 1;
  if ((maxParallelism & mask) === 0) return h & mask;
  return (((h >>> 1) % maxParallelism) * 2 + (h & 1)) % maxParallelism;
}

/**
 * murmur3_32 (seed 0) of the key's canonical bytes, as an unsigned 32-bit integer. Strings
 * and numbers, the usual keys, are hashed from a scratch buffer without allocating.
 */
export function hashKey(key: unknown): number {
  return hashKeyInt32(key) >>> 0;
}

/** hashKey's bits as an int32 (what keyBy computes per record). */
function hashKeyInt32(key: unknown): number {
  if (typeof key === 'string') return hashString(key);
  if (typeof key === 'number') return hashNumber(key);
  const bytes = canonicalKeyBytes(key);
  return murmur3Int32(bytes, bytes.length);
}

const scratch = Buffer.allocUnsafe(8);

/** A number's float64 bits as two int32 words, low word first on a little-endian machine (every platform Node runs on but s390x). */
const numberBits = new Float64Array(1);
const numberWords = new Int32Array(numberBits.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * murmur3 of a number's float64 LE bytes, as an int32: the two words straight from a
 * Float64Array view, not written byte by byte into a Buffer and read back (~190 → ~65
 * instructions per key). Pinned by key-groups.test.ts: savepoints' key groups rest on it.
 */
function hashNumber(key: number): number {
  if (!LITTLE_ENDIAN) {
    scratch.writeDoubleLE(key === 0 ? 0 : key, 0);
    return murmur3Int32(scratch, 8);
  }
  numberBits[0] = key === 0 ? 0 : key;
  return finalize(mixH(mixH(0, mixK(numberWords[0]!)), mixK(numberWords[1]!)), 8);
}

/**
 * The canonical bytes a key is hashed by: strings as UTF-8, numbers as float64 LE (so 1 and
 * 1.0 agree), booleans as one byte, bigints as their decimal string with an 'n' suffix,
 * anything else (arrays, plain objects) as JSON with sorted object keys.
 */
export function canonicalKeyBytes(key: unknown): Uint8Array {
  switch (typeof key) {
    case 'string':
      return Buffer.from(key, 'utf8');
    case 'number':
      scratch.writeDoubleLE(key === 0 ? 0 : key, 0);
      return Uint8Array.from(scratch);
    case 'boolean':
      return Uint8Array.of(key ? 1 : 0);
    case 'bigint':
      return Buffer.from(`${key}n`, 'utf8');
    default:
      return Buffer.from(canonicalJson(key), 'utf8');
  }
}

/** JSON with object keys sorted, so equal keys give equal strings whatever their field order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function mixK(k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, C2);
}

function mixH(h: number, k: number): number {
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** The last step of murmur3_32, as an int32: callers take `>>> 0` for the unsigned hash. */
function finalize(h: number, length: number): number {
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** murmur3_32 (seed 0) of the first `length` bytes. */
export function murmur3(bytes: Uint8Array, length = bytes.length): number {
  return murmur3Int32(bytes, length) >>> 0;
}

function murmur3Int32(bytes: Uint8Array, length: number): number {
  const n = length;
  const blocks = n & ~3;
  let h = 0;
  for (let i = 0; i < blocks; i += 4) {
    const k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    h = mixH(h, mixK(k));
  }
  const tail = n & 3;
  if (tail > 0) {
    let k = bytes[blocks]!;
    if (tail > 1) k ^= bytes[blocks + 1]! << 8;
    if (tail > 2) k ^= bytes[blocks + 2]! << 16;
    h ^= mixK(k);
  }
  return finalize(h, n);
}

const stringScratch = Buffer.allocUnsafe(4096);

/**
 * murmur3 of a string's UTF-8 bytes, as an int32. ASCII strings (the usual keys) are hashed
 * straight from their char codes, which are their UTF-8 bytes; others go through a scratch buffer.
 */
function hashString(s: string): number {
  const n = s.length;
  const blocks = n & ~3;
  let h = 0;
  let i = 0;
  for (; i < blocks; i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 0x7f) return hashNonAscii(s);
    h = mixH(h, mixK(c0 | (c1 << 8) | (c2 << 16) | (c3 << 24)));
  }
  const tail = n & 3;
  if (tail > 0) {
    let k = 0;
    for (let j = tail - 1; j >= 0; j--) {
      const c = s.charCodeAt(i + j);
      if (c > 0x7f) return hashNonAscii(s);
      k = (k << 8) | c;
    }
    h ^= mixK(k);
  }
  return finalize(h, n);
}

function hashNonAscii(s: string): number {
  if (s.length * 3 > stringScratch.length) {
    const bytes = Buffer.from(s, 'utf8');
    return murmur3Int32(bytes, bytes.length);
  }
  return murmur3Int32(stringScratch, stringScratch.write(s, 0, 'utf8'));
}
