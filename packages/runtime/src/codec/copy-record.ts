import { MAX_DEPTH } from './generic-values.ts';

/** What copyPlain answers for a value it does not copy itself: the codec's round trip does. */
export const NOT_PLAIN: unique symbol = Symbol('not plain');

/**
 * A deep copy of a record of plain data (primitives, plain objects, dense arrays, Map, Set,
 * Date): what msgpackr would deliver for it, without encoding it. Anything else (class
 * instances, holes, prototype-less objects, bytes, values that cannot travel) is NOT_PLAIN,
 * and RecordCodec.copy encodes and decodes the record instead, so a copy is always what the
 * network would deliver.
 */
export function copyPlain(value: unknown, depth: number): unknown {
  if (typeof value !== 'object') return typeof value === 'function' || typeof value === 'symbol' ? NOT_PLAIN : value;
  if (value === null) return null;
  if (depth >= MAX_DEPTH) return NOT_PLAIN;
  // As in checkObject: a property read first lets V8 fold getPrototypeOf.
  void (value as { constructor?: unknown }).constructor;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Object.prototype) return copyFields(value as Record<string, unknown>, depth);
  if (prototype === Array.prototype) return copyElements(value as unknown[], depth);
  if (prototype === Date.prototype) return new Date((value as Date).getTime());
  if (prototype === Map.prototype) {
    const copy = new Map<unknown, unknown>();
    for (const [k, v] of value as Map<unknown, unknown>) {
      const key = copyPlain(k, depth + 1);
      const entry = copyPlain(v, depth + 1);
      if (key === NOT_PLAIN || entry === NOT_PLAIN) return NOT_PLAIN;
      copy.set(key, entry);
    }
    return copy;
  }
  if (prototype === Set.prototype) {
    const copy = new Set<unknown>();
    for (const v of value as Set<unknown>) {
      const element = copyPlain(v, depth + 1);
      if (element === NOT_PLAIN) return NOT_PLAIN;
      copy.add(element);
    }
    return copy;
  }
  return NOT_PLAIN;
}

function copyFields(value: Record<string, unknown>, depth: number): unknown {
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    // msgpackr writes an own `__proto__` key as `__proto_`: the round trip says what arrives.
    if (key === '__proto__') return NOT_PLAIN;
    const field = value[key];
    if (typeof field === 'string' || typeof field === 'number') {
      copy[key] = field;
      continue;
    }
    const fieldCopy = copyPlain(field, depth + 1);
    if (fieldCopy === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = fieldCopy;
  }
  return copy;
}

function copyElements(array: readonly unknown[], depth: number): unknown {
  const copy = new Array<unknown>(array.length);
  for (let i = 0; i < array.length; i++) {
    if (!(i in array)) return NOT_PLAIN;
    const element = copyPlain(array[i], depth + 1);
    if (element === NOT_PLAIN) return NOT_PLAIN;
    copy[i] = element;
  }
  return copy;
}
