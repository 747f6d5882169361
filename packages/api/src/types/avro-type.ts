import { isDeepStrictEqual } from 'node:util';
import { describeError } from '@weir/common';
import { avroType, storedAvroSchema, toPlain, type AvroType } from './avro-schema.ts';
import type { Migration } from './migration.ts';
import { incompatibleType, migrationFailed, type SchemaLocation } from './schema-location.ts';
import type { AvroDescription, TypeInformation } from './type-information.ts';
import { typeName } from './type-names.ts';

/** Values described by an Avro schema (Flink's AvroTypeInfo); they stay plain JS objects in state. */
export class AvroTypeInformation<T> implements TypeInformation<T> {
  readonly name: string;
  readonly #description: AvroDescription;

  constructor(schema: unknown) {
    this.#description = Object.freeze({ kind: 'AVRO', schema: storedAvroSchema(schema) });
    this.name = typeName(this.#description);
    Object.freeze(this);
  }

  describe(): AvroDescription {
    return this.#description;
  }

  toString(): string {
    return this.name;
  }
}

/**
 * Avro's schema resolution with the saved schema as the writer's and the declared one as the
 * reader's (Flink's AvroSerializer evolution): fields may come (with a default) and go,
 * numbers may widen, renames need aliases. A value that already fits the reader schema is
 * kept (with any missing defaulted fields filled in), so migrating twice changes nothing; any
 * other is encoded with the writer schema and decoded through the resolver.
 */
export function resolveAvro(restored: AvroDescription, current: AvroDescription, at: SchemaLocation): Migration | null {
  if (isDeepStrictEqual(restored.schema, current.schema)) return null;
  let writer: AvroType;
  try {
    writer = avroType(restored.schema);
  } catch (err) {
    throw incompatibleType(at, restored, current, `the saved Avro schema does not parse (${describeError(err)})`);
  }
  const reader = avroType(current.schema);
  let resolver: ReturnType<AvroType['createResolver']>;
  try {
    resolver = reader.createResolver(writer);
  } catch (err) {
    throw incompatibleType(at, restored, current, `Avro's resolution rules reject the change (${describeError(err)}); evolve the schema as Avro allows: add fields with a default, remove fields, widen numbers`);
  }
  return (value) => {
    if (reader.isValid(value, { noUndeclaredFields: true })) {
      // avsc counts a record lacking a field that has a default as valid; clone fills it in and keeps the rest.
      const filled = toPlain(reader.clone(value));
      return isDeepStrictEqual(filled, value) ? value : filled;
    }
    let bytes: Buffer;
    try {
      bytes = writer.toBuffer(value);
    } catch (err) {
      throw migrationFailed(at, current, `it does not fit the saved Avro schema either (${describeError(err)})`);
    }
    return toPlain(reader.fromBuffer(bytes, resolver));
  };
}
