import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { TypeDescription, TypeInformation } from './type-information.ts';

/** The record type a TypeInformation describes. */
export type TypeOf<I> = I extends TypeInformation<infer T> ? T : never;

class DescribedType<T> implements TypeInformation<T> {
  readonly #description: TypeDescription;

  constructor(
    readonly name: string,
    description: TypeDescription,
  ) {
    this.#description = description;
    Object.freeze(this);
  }

  describe(): TypeDescription {
    return this.#description;
  }

  toString(): string {
    return this.name;
  }
}

function basic<T>(kind: 'STRING' | 'NUMBER' | 'BOOLEAN' | 'BIGINT' | 'BYTES' | 'GENERIC'): TypeInformation<T> {
  return new DescribedType<T>(kind, Object.freeze({ kind }));
}

function requireType(value: unknown, where: string): TypeInformation<unknown> {
  const candidate = value as Partial<TypeInformation<unknown>> | null | undefined;
  if (candidate === null || typeof candidate !== 'object' || typeof candidate.name !== 'string' || typeof candidate.describe !== 'function') {
    throw new WeirError(ApiErrorCode.INVALID_TYPE, `${where} must be a TypeInformation such as Types.STRING, got ${String(value)}`);
  }
  return candidate as TypeInformation<unknown>;
}

const STRING = basic<string>('STRING');
const NUMBER = basic<number>('NUMBER');
const BOOLEAN = basic<boolean>('BOOLEAN');
const BIGINT = basic<bigint>('BIGINT');
const BYTES = basic<Uint8Array>('BYTES');
const GENERIC_TYPE = basic<unknown>('GENERIC');

/**
 * Type descriptions for records and state (Flink's `Types`). Names are stable: they are part
 * of the schema snapshot a restore checks, so they never change between versions.
 */
export const Types = Object.freeze({
  STRING,
  NUMBER,
  BOOLEAN,
  BIGINT,
  BYTES,
  /** Any value MessagePack can carry; a restore cannot check its schema. */
  GENERIC<T>(): TypeInformation<T> {
    return GENERIC_TYPE as TypeInformation<T>;
  },
  LIST<E>(element: TypeInformation<E>): TypeInformation<E[]> {
    const e = requireType(element, 'the element type of Types.LIST');
    return new DescribedType<E[]>(`LIST<${e.name}>`, Object.freeze({ kind: 'LIST', element: e.describe() }));
  },
  MAP<K, V>(key: TypeInformation<K>, value: TypeInformation<V>): TypeInformation<Map<K, V>> {
    const k = requireType(key, 'the key type of Types.MAP');
    const v = requireType(value, 'the value type of Types.MAP');
    return new DescribedType<Map<K, V>>(
      `MAP<${k.name}, ${v.name}>`,
      Object.freeze({ kind: 'MAP', key: k.describe(), value: v.describe() }),
    );
  },
  /** A record with named fields, in the given order; it may gain or lose fields across a restore. */
  ROW<F extends Record<string, TypeInformation<unknown>>>(fields: F): TypeInformation<{ [N in keyof F]: TypeOf<F[N]> }> {
    if (fields === null || typeof fields !== 'object' || Object.keys(fields).length === 0) {
      throw new WeirError(ApiErrorCode.INVALID_TYPE, 'Types.ROW needs at least one field, as in Types.ROW({ word: Types.STRING })');
    }
    const names: string[] = [];
    const described: Record<string, TypeDescription> = {};
    for (const [field, type] of Object.entries(fields)) {
      const t = requireType(type, `field '${field}' of Types.ROW`);
      names.push(`${field}: ${t.name}`);
      described[field] = t.describe();
    }
    return new DescribedType(`ROW<${names.join(', ')}>`, Object.freeze({ kind: 'ROW', fields: Object.freeze(described) }));
  },
});
