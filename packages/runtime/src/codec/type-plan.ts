import { typeStructure, type PojoClass, type TypeInformation } from '@weir/api';
import { CLEAN, checkValue, convertValue, describeObject, fieldPath, findProblem, MAX_DEPTH, REFUSED, SPECIAL, type Problem } from './generic-values.ts';
import { HoleyArray } from './special-values.ts';

/**
 * How the records of one stream are checked, converted and revived, compiled once from its
 * declared type (or GENERIC_PLAN when undeclared). `check` runs on every record and only
 * returns CLEAN, SPECIAL or REFUSED flags; the rest runs when it has to.
 */
export interface TypePlan {
  check(value: unknown, depth: number): number;
  /** A value `check` found SPECIAL, ready for msgpackr: wrappers in place, CUSTOM values serialized. */
  convert(value: unknown): unknown;
  /** Turns a decoded value back into its declared form (POJO classes, CUSTOM deserialize); undefined when nothing needs it. */
  readonly revive: ((value: unknown) => unknown) | undefined;
  /** Where and why `check` refused a value. */
  problem(value: unknown, path: string, depth: number): Problem | undefined;
}

/** Thrown by `convert` when a CUSTOM type's serialize returned something that cannot travel. */
export class ConvertProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.found);
  }
}

/** Undeclared records: everything structured clone supports, unchanged. */
export const GENERIC_PLAN: TypePlan = { check: checkValue, convert: convertValue, revive: undefined, problem: findProblem };

export function planFor(type: TypeInformation<unknown> | undefined): TypePlan {
  return type === undefined ? GENERIC_PLAN : compile(type, type.name);
}

/** `declared` is the stream's whole type, named in messages. */
function compile(type: TypeInformation<unknown>, declared: string): TypePlan {
  const structure = typeStructure(type);
  switch (structure.kind) {
    case 'GENERIC':
    case 'AVRO':
      return GENERIC_PLAN;
    case 'STRING':
      return new PrimitivePlan('string', 'a STRING', declared);
    case 'NUMBER':
      return new PrimitivePlan('number', 'a NUMBER', declared);
    case 'BOOLEAN':
      return new PrimitivePlan('boolean', 'a BOOLEAN', declared);
    case 'BIGINT':
      return new PrimitivePlan('bigint', 'a BIGINT', declared);
    case 'BYTES':
      return new BytesPlan(declared);
    case 'LIST':
      return new ListPlan(compile(structure.element, declared), declared);
    case 'MAP':
      return new MapPlan(compile(structure.key, declared), compile(structure.value, declared), declared);
    case 'ROW': {
      const fields = new Map<string, TypePlan>();
      for (const [field, fieldType] of Object.entries(structure.fields)) fields.set(field, compile(fieldType, declared));
      return new RowPlan(type.name, fields, structure.pojoClass, declared);
    }
    case 'CUSTOM':
      return structure.serialize === undefined || structure.deserialize === undefined
        ? GENERIC_PLAN
        : new CustomPlan(structure.name, structure.serialize, structure.deserialize);
  }
}

function mismatch(path: string, value: unknown, expected: string, declared: string): Problem {
  return {
    path,
    found: describeValue(value),
    remedy: `the stream is declared as ${declared}, which makes it ${expected}; emit ${expected} there, or declare the type it has with returns(...)`,
  };
}

/** "a string", "an array", "a Map", "an instance of class Account". */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const prototype: unknown = Object.getPrototypeOf(value);
    return prototype === Object.prototype ? 'a plain object' : prototype === null ? 'an object without a prototype' : describeObject(value);
  }
  return `a${typeof value === 'undefined' ? 'n' : ''} ${typeof value}`;
}

/** Declared parts may be null or undefined, as Flink's fields may be null. */
function absent(value: unknown): boolean {
  return value === null || value === undefined;
}

class PrimitivePlan implements TypePlan {
  readonly revive = undefined;

  constructor(
    private readonly typeOf: 'string' | 'number' | 'boolean' | 'bigint',
    private readonly expected: string,
    private readonly declared: string,
  ) {}

  check(value: unknown): number {
    if (typeof value === this.typeOf) return value === 0 && 1 / (value as number) < 0 ? SPECIAL : CLEAN;
    return absent(value) ? CLEAN : REFUSED;
  }

  convert(value: unknown): unknown {
    return convertValue(value);
  }

  problem(value: unknown, path: string): Problem | undefined {
    return this.check(value) === REFUSED ? mismatch(path, value, this.expected, this.declared) : undefined;
  }
}

class BytesPlan implements TypePlan {
  readonly revive = undefined;

  constructor(private readonly declared: string) {}

  check(value: unknown): number {
    return value instanceof Uint8Array || absent(value) ? CLEAN : REFUSED;
  }

  convert(value: unknown): unknown {
    return value;
  }

  problem(value: unknown, path: string): Problem | undefined {
    return this.check(value) === REFUSED ? mismatch(path, value, 'BYTES (a Uint8Array or Buffer)', this.declared) : undefined;
  }
}

class ListPlan implements TypePlan {
  readonly revive: ((value: unknown) => unknown) | undefined;

  constructor(
    private readonly element: TypePlan,
    private readonly declared: string,
  ) {
    const reviveElement = element.revive;
    this.revive = reviveElement === undefined ? undefined : (value) => (absent(value) ? value : (value as unknown[]).map(reviveElement));
  }

  check(value: unknown, depth: number): number {
    if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return absent(value) ? CLEAN : REFUSED;
    if (depth >= MAX_DEPTH) return REFUSED;
    let flags = CLEAN;
    for (let i = 0; i < value.length; i++) {
      const element: unknown = value[i];
      if (element === undefined && !(i in value)) flags |= SPECIAL;
      else flags |= this.element.check(element, depth + 1);
    }
    return flags;
  }

  convert(value: unknown): unknown {
    if (absent(value)) return value;
    const array = value as unknown[];
    let holey = false;
    for (let i = 0; i < array.length && !holey; i++) holey = !(i in array);
    if (!holey) return array.map((element) => this.element.convert(element));
    const entries: unknown[] = [];
    array.forEach((element, i) => entries.push(i, this.element.convert(element)));
    return new HoleyArray(array.length, entries);
  }

  problem(value: unknown, path: string, depth: number): Problem | undefined {
    if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) {
      return absent(value) ? undefined : mismatch(path, value, 'a LIST (an array)', this.declared);
    }
    if (depth >= MAX_DEPTH) return findProblem(value, path, depth);
    for (let i = 0; i < value.length; i++) {
      const problem = this.element.problem(value[i], `${path}[${i}]`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
}

class MapPlan implements TypePlan {
  readonly revive: ((value: unknown) => unknown) | undefined;

  constructor(
    private readonly key: TypePlan,
    private readonly value: TypePlan,
    private readonly declared: string,
  ) {
    const reviveKey = key.revive ?? ((k: unknown) => k);
    const reviveValue = value.revive ?? ((v: unknown) => v);
    this.revive =
      key.revive === undefined && value.revive === undefined
        ? undefined
        : (map) => {
            if (absent(map)) return map;
            const revived = new Map<unknown, unknown>();
            for (const [k, v] of map as Map<unknown, unknown>) revived.set(reviveKey(k), reviveValue(v));
            return revived;
          };
  }

  check(value: unknown, depth: number): number {
    if (!(value instanceof Map) || Object.getPrototypeOf(value) !== Map.prototype) return absent(value) ? CLEAN : REFUSED;
    if (depth >= MAX_DEPTH) return REFUSED;
    let flags = CLEAN;
    for (const [k, v] of value) flags |= this.key.check(k, depth + 1) | this.value.check(v, depth + 1);
    return flags;
  }

  convert(value: unknown): unknown {
    if (absent(value)) return value;
    const converted = new Map<unknown, unknown>();
    for (const [k, v] of value as Map<unknown, unknown>) converted.set(this.key.convert(k), this.value.convert(v));
    return converted;
  }

  problem(value: unknown, path: string, depth: number): Problem | undefined {
    if (!(value instanceof Map) || Object.getPrototypeOf(value) !== Map.prototype) {
      return absent(value) ? undefined : mismatch(path, value, 'a MAP (a Map)', this.declared);
    }
    if (depth >= MAX_DEPTH) return findProblem(value, path, depth);
    for (const [k, v] of value) {
      const problem = this.key.problem(k, `${path}<a key>`, depth + 1) ?? this.value.problem(v, `${path}.get(…)`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
}

class RowPlan implements TypePlan {
  readonly revive: ((value: unknown) => unknown) | undefined;
  readonly #prototype: object;

  constructor(
    private readonly rowName: string,
    private readonly fields: ReadonlyMap<string, TypePlan>,
    private readonly pojoClass: PojoClass | undefined,
    private readonly declared: string,
  ) {
    this.#prototype = pojoClass?.prototype ?? Object.prototype;
    const revivers = [...fields].filter(([, plan]) => plan.revive !== undefined).map(([field, plan]) => [field, plan.revive!] as const);
    if (pojoClass === undefined && revivers.length === 0) {
      this.revive = undefined;
    } else {
      const prototype = this.#prototype;
      this.revive = (decoded) => {
        if (absent(decoded)) return decoded;
        const row = decoded as Record<string, unknown>;
        const revived = pojoClass === undefined ? row : Object.assign(Object.create(prototype) as Record<string, unknown>, row);
        for (const [field, revive] of revivers) revived[field] = revive(row[field]);
        return revived;
      };
    }
  }

  check(value: unknown, depth: number): number {
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== this.#prototype) return absent(value) ? CLEAN : REFUSED;
    if (depth >= MAX_DEPTH) return REFUSED;
    const row = value as Record<string, unknown>;
    let flags = CLEAN;
    for (const field in row) {
      const plan = this.fields.get(field);
      flags |= plan === undefined ? REFUSED : plan.check(row[field], depth + 1);
    }
    return flags;
  }

  convert(value: unknown): unknown {
    if (absent(value)) return value;
    const row = value as Record<string, unknown>;
    const converted: Record<string, unknown> = {};
    for (const field of Object.keys(row)) converted[field] = this.fields.get(field)!.convert(row[field]);
    return converted;
  }

  problem(value: unknown, path: string, depth: number): Problem | undefined {
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== this.#prototype) {
      if (absent(value)) return undefined;
      const expected = this.pojoClass === undefined ? `a ${this.rowName} (a plain object)` : `a ${this.rowName} (an instance of class ${this.pojoClass.name})`;
      return mismatch(path, value, expected, this.declared);
    }
    if (depth >= MAX_DEPTH) return findProblem(value, path, depth);
    const row = value as Record<string, unknown>;
    for (const field of Object.keys(row)) {
      const plan = this.fields.get(field);
      if (plan === undefined) {
        return {
          path: fieldPath(path, field),
          found: `not a field of ${this.rowName}`,
          remedy: `the stream is declared as ${this.declared}; declare the field in the type, or leave it out of the record`,
        };
      }
      const problem = plan.problem(row[field], fieldPath(path, field), depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
}

/** Types.CUSTOM with serialize and deserialize: the job converts, and the data it gives travels like an undeclared value. */
class CustomPlan implements TypePlan {
  readonly revive: (value: unknown) => unknown;

  constructor(
    private readonly name: string,
    private readonly serialize: (value: unknown) => unknown,
    deserialize: (data: unknown) => unknown,
  ) {
    this.revive = (data) => (absent(data) ? data : deserialize(data));
  }

  check(value: unknown): number {
    return absent(value) ? CLEAN : SPECIAL;
  }

  convert(value: unknown): unknown {
    if (absent(value)) return value;
    const data = this.serialize(value);
    const flags = checkValue(data, 0);
    if ((flags & REFUSED) !== 0) {
      const problem = findProblem(data, '', 0)!;
      throw new ConvertProblem({
        ...problem,
        found: `${problem.found} (in what serialize of Types.CUSTOM '${this.name}' returned${problem.path === '' ? '' : ` at ${problem.path}`})`,
      });
    }
    return (flags & SPECIAL) === 0 ? data : convertValue(data);
  }

  problem(): Problem | undefined {
    return undefined;
  }
}
