import { HoleyArray, MapEntries, NEGATIVE_ZERO, ObjectEntries } from './special-values.ts';

/**
 * Records of undeclared type: every value that structured clone supports travels unchanged
 * (primitives with -0 and BigInts of any size, plain and prototype-less objects, arrays with
 * holes, Map, Set, Date, RegExp, the Error types, ArrayBuffer, DataView, typed arrays and
 * Buffer); anything else is refused. `checkValue` looks at every value once, on the path of
 * every record, so it only answers with flags; `convertValue` and `findProblem` run when it
 * found something.
 */

/** Nothing to do: msgpackr carries the value as it is. */
export const CLEAN = 0;
/** The value holds something msgpackr would change: convert it first. */
export const SPECIAL = 1;
/** The value holds something that cannot travel: refuse it. */
export const REFUSED = 2;
/** The value holds a Map: a record keeps it as it is, a state value has it converted (special-values.ts). */
export const MAP = 4;

/** Deeper nesting is refused: it is all but certainly a cycle. */
export const MAX_DEPTH = 256;

/** Objects msgpackr (with `moreTypes`) writes and reads back as themselves, by their exact prototype. */
const LEAF_PROTOTYPES: ReadonlySet<unknown> = new Set<unknown>(
  [
    Date,
    RegExp,
    Error,
    EvalError,
    RangeError,
    ReferenceError,
    SyntaxError,
    TypeError,
    URIError,
    ArrayBuffer,
    DataView,
    Buffer,
    Int8Array,
    Uint8Array,
    Uint8ClampedArray,
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    Float32Array,
    Float64Array,
    BigInt64Array,
    BigUint64Array,
  ].map((type) => type.prototype),
);

export function checkValue(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
    case 'bigint':
      return CLEAN;
    case 'number':
      return value === 0 && 1 / value < 0 ? SPECIAL : CLEAN;
    case 'object':
      return value === null ? CLEAN : checkObject(value, depth);
    default:
      return REFUSED;
  }
}

function checkObject(value: object, depth: number): number {
  if (depth >= MAX_DEPTH) return REFUSED;
  // A property read first gives V8 the object's map, from which it folds getPrototypeOf to a
  // constant; on an object it knows nothing about, getPrototypeOf is a builtin call (some 10 ns a record).
  void (value as { constructor?: unknown }).constructor;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Object.prototype) return checkFields(value as Record<string, unknown>, depth, CLEAN);
  if (prototype === Array.prototype) return checkElements(value as unknown[], depth);
  if (prototype === Map.prototype) {
    let flags = MAP;
    for (const [k, v] of value as Map<unknown, unknown>) flags |= checkValue(k, depth + 1) | checkValue(v, depth + 1);
    return flags;
  }
  if (prototype === Set.prototype) {
    let flags = CLEAN;
    for (const v of value as Set<unknown>) flags |= checkValue(v, depth + 1);
    return flags;
  }
  if (prototype === null) return checkFields(value as Record<string, unknown>, depth, SPECIAL);
  return LEAF_PROTOTYPES.has(prototype) ? CLEAN : REFUSED;
}

/** Strings and numbers, the usual fields, are looked at here; checkValue is called for the rest. */
function checkFields(value: Record<string, unknown>, depth: number, flags: number): number {
  for (const key in value) {
    // msgpackr writes an own `__proto__` key as `__proto_`.
    if (key === '__proto__') flags |= SPECIAL;
    const field = value[key];
    if (typeof field === 'string') continue;
    if (typeof field === 'number') {
      if (field === 0 && 1 / field < 0) flags |= SPECIAL;
      continue;
    }
    flags |= checkValue(field, depth + 1);
  }
  return flags;
}

function checkElements(array: readonly unknown[], depth: number): number {
  let flags = CLEAN;
  for (let i = 0; i < array.length; i++) {
    const element = array[i];
    if (element === undefined) {
      if (!(i in array)) flags |= SPECIAL;
    } else {
      flags |= checkValue(element, depth + 1);
    }
  }
  return flags;
}

/**
 * A copy of a value that checkValue found SPECIAL (or MAP, for state) and not REFUSED, with the
 * wrappers of special-values.ts in place; `mapEntries` wraps Maps too, as state values need.
 */
export function convertValue(value: unknown, mapEntries = false): unknown {
  if (typeof value === 'number') return value === 0 && 1 / value < 0 ? NEGATIVE_ZERO : value;
  if (typeof value !== 'object' || value === null) return value;
  const convert = (v: unknown) => convertValue(v, mapEntries);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Array.prototype) {
    const array = value as unknown[];
    let holey = false;
    for (let i = 0; i < array.length && !holey; i++) holey = !(i in array);
    if (!holey) return array.map(convert);
    const entries: unknown[] = [];
    array.forEach((element, i) => entries.push(i, convert(element)));
    return new HoleyArray(array.length, entries);
  }
  if (prototype === Object.prototype || prototype === null) {
    const object = value as Record<string, unknown>;
    if (prototype === null || Object.hasOwn(object, '__proto__')) {
      const entries: unknown[] = [];
      for (const key of Object.keys(object)) entries.push(key, convert(object[key]));
      return new ObjectEntries(prototype === null, entries);
    }
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(object)) copy[key] = convert(object[key]);
    return copy;
  }
  if (prototype === Map.prototype) {
    if (mapEntries) {
      const entries: unknown[] = [];
      for (const [k, v] of value as Map<unknown, unknown>) entries.push(convert(k), convert(v));
      return new MapEntries(entries);
    }
    const copy = new Map<unknown, unknown>();
    for (const [k, v] of value as Map<unknown, unknown>) copy.set(convert(k), convert(v));
    return copy;
  }
  if (prototype === Set.prototype) {
    const copy = new Set<unknown>();
    for (const v of value as Set<unknown>) copy.add(convert(v));
    return copy;
  }
  return value;
}

/** What is wrong with a value checkValue REFUSED, and where: a path such as `owner.accounts[2]` ('' for the value itself). */
export interface Problem {
  readonly path: string;
  /** What the value is, as in "an instance of class Account". */
  readonly found: string;
  /** Why it cannot travel and what to do instead. */
  readonly remedy: string;
}

export function findProblem(value: unknown, path: string, depth: number): Problem | undefined {
  if (typeof value === 'function') {
    return { path, found: `a function${value.name === '' ? '' : ` (${value.name})`}`, remedy: 'functions cannot be sent between tasks; emit data' };
  }
  if (typeof value === 'symbol') return { path, found: 'a symbol', remedy: 'symbols cannot be sent between tasks; emit a string instead' };
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_DEPTH) {
    return { path, found: `nested more than ${MAX_DEPTH} levels deep`, remedy: 'a record must not refer to itself (a cycle); emit a tree of values' };
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const problem = findProblem(object[key], fieldPath(path, key), depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (prototype === Array.prototype) {
    const array = value as unknown[];
    for (let i = 0; i < array.length; i++) {
      const problem = findProblem(array[i], `${path}[${i}]`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (prototype === Map.prototype) {
    for (const [k, v] of value as Map<unknown, unknown>) {
      const problem = findProblem(k, `${path}<key ${describeKey(k)}>`, depth + 1) ?? findProblem(v, `${path}.get(${describeKey(k)})`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (prototype === Set.prototype) {
    for (const v of value as Set<unknown>) {
      const problem = findProblem(v, `${path}<element>`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (LEAF_PROTOTYPES.has(prototype)) return undefined;
  return { path, found: describeObject(value), remedy: remedyFor(value) };
}

/** "an instance of class Account", "a Number object", "a WeakMap". */
export function describeObject(value: object): string {
  const name = constructorName(value);
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return `a ${name} object`;
  if (name === undefined) return 'an object with a prototype of its own';
  if (isBuiltIn(value)) return `a${/^[AEIOU]/.test(name) ? 'n' : ''} ${name}`;
  return `an instance of class ${name}`;
}

function remedyFor(value: object): string {
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return 'it would arrive as a plain object; emit the primitive value';
  if (isBuiltIn(value)) {
    return `a ${constructorName(value)} cannot be sent between tasks; convert it to data, or declare the stream's type as Types.CUSTOM({ name, version, serialize, deserialize })`;
  }
  const name = constructorName(value) ?? 'YourClass';
  return (
    `it would arrive as a plain object, without its class and methods; declare the stream's type so the class is registered and kept: ` +
    `.returns(Types.POJO(${name}, { ...its fields })), or Types.CUSTOM({ name, version, serialize, deserialize }) to convert it yourself, or emit plain objects`
  );
}

function constructorName(value: object): string | undefined {
  const constructor: unknown = (value as { constructor?: unknown }).constructor;
  return typeof constructor === 'function' && constructor.name !== '' ? constructor.name : undefined;
}

/** A class of the JS runtime itself (WeakMap, Promise, a subclass of nothing the job wrote). */
function isBuiltIn(value: object): boolean {
  const constructor: unknown = (value as { constructor?: unknown }).constructor;
  return typeof constructor === 'function' && (globalThis as Record<string, unknown>)[constructor.name] === constructor;
}

export function fieldPath(path: string, key: string): string {
  const plain = /^[A-Za-z_$][\w$]*$/.test(key);
  if (path === '') return plain ? key : `[${JSON.stringify(key)}]`;
  return plain ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function describeKey(key: unknown): string {
  if (typeof key === 'string') return JSON.stringify(key);
  if (typeof key === 'number' || typeof key === 'boolean' || typeof key === 'bigint') return String(key);
  return '…';
}
