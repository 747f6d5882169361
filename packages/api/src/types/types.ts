import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { AvroTypeInformation } from './avro-type.ts';
import { CustomType, type CustomTypeOptions } from './custom-type.ts';
import { describeRow, FieldWithDefault, requireType, type RowField, type RowOf } from './row-type.ts';
import type { BasicKind, TypeDescription, TypeInformation } from './type-information.ts';
import { typeName } from './type-names.ts';
import { registerStructure, type PojoClass } from './type-structure.ts';

/** The record type a TypeInformation describes. */
export type TypeOf<I> = I extends TypeInformation<infer T> ? T : never;

class DescribedType<T> implements TypeInformation<T> {
  readonly name: string;
  readonly #description: TypeDescription;

  constructor(description: TypeDescription) {
    this.#description = description;
    this.name = typeName(description);
    Object.freeze(this);
  }

  describe(): TypeDescription {
    return this.#description;
  }

  toString(): string {
    return this.name;
  }
}

/**
 * A ROW with a type name (Flink's Types.POJO): it evolves as a ROW, and a restore refuses
 * state saved under another type name. Given a class (`Types.POJO(Account, { ... })`, named
 * by the class's name), records of a stream declared with it arrive as instances of that
 * class, methods and all: the class is registered with the type. Their own enumerable fields
 * travel; the constructor is not called on arrival.
 */
function POJO<C extends PojoClass, F extends Record<string, RowField>>(pojoClass: C, fields: F): TypeInformation<InstanceType<C>>;
function POJO<F extends Record<string, RowField>>(typeName: string, fields: F): TypeInformation<RowOf<F>>;
function POJO(nameOrClass: string | PojoClass, fields: Record<string, RowField>): TypeInformation<unknown> {
  if (typeof nameOrClass === 'function') {
    if (nameOrClass.name === '') {
      throw new WeirError(ApiErrorCode.INVALID_TYPE, 'Types.POJO got an anonymous class; give the class a name (its name is the type name state is checked by)');
    }
    return row(nameOrClass.name, fields, nameOrClass);
  }
  if (typeof nameOrClass !== 'string' || nameOrClass.trim() === '') {
    throw new WeirError(
      ApiErrorCode.INVALID_TYPE,
      `Types.POJO needs a class or a non-empty type name, as in Types.POJO(WordCount, { word: Types.STRING }) or Types.POJO('WordCount', { word: Types.STRING }), got ${String(nameOrClass)}`,
    );
  }
  return row(nameOrClass, fields, undefined);
}

function row(name: string | undefined, fields: Record<string, RowField>, pojoClass: PojoClass | undefined): TypeInformation<never> {
  const type = new DescribedType<never>(describeRow(name, fields));
  const fieldTypes: Record<string, TypeInformation<unknown>> = {};
  for (const [field, declared] of Object.entries(fields)) fieldTypes[field] = declared instanceof FieldWithDefault ? declared.type : declared;
  return registerStructure(type, { kind: 'ROW', name, fields: Object.freeze(fieldTypes), pojoClass });
}

function basic<T>(kind: BasicKind): TypeInformation<T> {
  return new DescribedType<T>(Object.freeze({ kind }));
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
  /** An array of `element`s (Flink's Types.LIST); its elements evolve by their own type's rules. */
  LIST<E>(element: TypeInformation<E>): TypeInformation<E[]> {
    const e = requireType(element, 'the element type of Types.LIST');
    const type = new DescribedType<E[]>(Object.freeze({ kind: 'LIST', element: e.describe() }));
    return registerStructure(type, { kind: 'LIST', element: e });
  },
  /** A Map from `key` to `value` (Flink's Types.MAP); records hold a JavaScript Map. */
  MAP<K, V>(key: TypeInformation<K>, value: TypeInformation<V>): TypeInformation<Map<K, V>> {
    const k = requireType(key, 'the key type of Types.MAP');
    const v = requireType(value, 'the value type of Types.MAP');
    const type = new DescribedType<Map<K, V>>(Object.freeze({ kind: 'MAP', key: k.describe(), value: v.describe() }));
    return registerStructure(type, { kind: 'MAP', key: k, value: v });
  },
  /**
   * A record with named fields, in the given order. Across a restore it may gain fields
   * (restored records get the field's default) and lose fields (dropped); a kept field's
   * type must stay, or evolve by its own rules. Records of a stream declared as a ROW hold
   * exactly these fields (any may be null or undefined).
   */
  ROW<F extends Record<string, RowField>>(fields: F): TypeInformation<RowOf<F>> {
    return row(undefined, fields, undefined);
  },
  /** A named ROW, or a class's instances (Flink's Types.POJO); see the POJO overloads. */
  POJO,
  /**
   * A ROW field with the value that restored records lacking the field get, instead of its
   * type's default ('' / 0 / false / 0n / empty bytes / [] / empty Map / a ROW of defaults /
   * null): `Types.ROW({ count: Types.NUMBER, tag: Types.withDefault(Types.STRING, 'none') })`.
   */
  withDefault<T>(type: TypeInformation<T>, defaultValue: T): FieldWithDefault<T> {
    return new FieldWithDefault(type, defaultValue);
  },
  /**
   * Values described by an Avro schema (an object, or its JSON text), evolving by Avro's
   * resolution rules with the saved schema as the writer's. Values are plain JS objects.
   */
  AVRO<T = unknown>(schema: object | string): TypeInformation<T> {
    return new AvroTypeInformation<T>(schema);
  },
  /**
   * A type of the job's own with a version (Flink's TypeSerializerSnapshot): state of an
   * older version restores through `migrate`; another name, a newer version, or an older
   * one without migrate is incompatible.
   */
  CUSTOM<T>(options: CustomTypeOptions<T>): TypeInformation<T> {
    return new CustomType<T>(options);
  },
});
