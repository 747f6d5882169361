import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';

/**
 * How snapshots name an entry of a namespaced state (a window's): namespace and key in one
 * string, `<namespace>\u0001<keyId>`. Every snapshot format (canonical, LevelDB) has kept
 * namespaced entries under this string since windows came, so it stays the format: the heap
 * backend keeps them in nested Maps and builds it only when it writes a snapshot, and parses
 * it back when it restores one. Namespaces (WindowAssigner.namespaceOf) hold no U+0001.
 */
export function namespacedKey(namespace: string, normalizedKey: unknown): string {
  return joinNamespacedKey(namespace, keyId(normalizedKey));
}

/** namespacedKey of a key whose keyId the caller has already. */
export function joinNamespacedKey(namespace: string, id: string): string {
  return `${namespace}\u0001${id}`;
}

/** A normalized key as a string, its type first, so keys of different types never collide (1 and '1'). */
export function keyId(normalized: unknown): string {
  switch (typeof normalized) {
    case 'string':
      return `s${normalized}`;
    case 'number':
      return `n${normalized}`;
    case 'bigint':
      return `b${normalized}`;
    case 'boolean':
      return normalized ? 't' : 'f';
    default:
      return `u${String(normalized)}`;
  }
}

/** The namespace and normalized key of a snapshot's namespaced entry; `state` names the state for the error when the string is not one. */
export function splitNamespacedKey(composite: unknown, state: string): { namespace: string; normalizedKey: unknown } {
  const separator = typeof composite === 'string' ? composite.indexOf('\u0001') : -1;
  const normalizedKey = separator < 0 ? NOT_A_KEY : keyOfId((composite as string).slice(separator + 1));
  if (normalizedKey === NOT_A_KEY) {
    throw new WeirError(
      RuntimeErrorCode.CHECKPOINT_CORRUPT,
      `namespaced state '${state}' was restored with the entry key ${JSON.stringify(String(composite))}, which is not <namespace>\\u0001<key>; the snapshot is corrupt`,
    );
  }
  return { namespace: (composite as string).slice(0, separator), normalizedKey };
}

const NOT_A_KEY = Symbol('not a key');

/** The inverse of keyId. */
function keyOfId(id: string): unknown {
  const rest = id.slice(1);
  switch (id[0]) {
    case 's':
      return rest;
    case 'n':
      return rest === 'NaN' || (rest !== '' && !Number.isNaN(Number(rest))) ? Number(rest) : NOT_A_KEY;
    case 'b':
      return /^-?\d+$/.test(rest) ? BigInt(rest) : NOT_A_KEY;
    case 't':
      return rest === '' ? true : NOT_A_KEY;
    case 'f':
      return rest === '' ? false : NOT_A_KEY;
    case 'u':
      return rest === 'undefined' ? undefined : rest === 'null' ? null : NOT_A_KEY;
    default:
      return NOT_A_KEY;
  }
}
