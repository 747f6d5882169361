import { createRequire } from 'node:module';
import type avro from 'avsc';
import { WeirError, describeError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';

export type AvroType = avro.Type;

const require = createRequire(import.meta.url);
let avsc: typeof avro | undefined;

/**
 * An Avro schema as stored in a description: plain JSON (a JSON string is parsed; a bare name
 * such as 'string' stays a string), checked by avsc.
 */
export function storedAvroSchema(schema: unknown): unknown {
  let parsed = schema;
  if (typeof schema === 'string') {
    try {
      parsed = JSON.parse(schema);
    } catch {
      parsed = schema;
    }
  }
  if (parsed === null || (typeof parsed !== 'string' && typeof parsed !== 'object')) {
    throw new WeirError(ApiErrorCode.INVALID_TYPE, `Types.AVRO needs an Avro schema (an object, or its JSON text), got ${String(schema)}`);
  }
  const copy: unknown = JSON.parse(JSON.stringify(parsed));
  try {
    avroType(copy);
  } catch (err) {
    throw new WeirError(ApiErrorCode.INVALID_TYPE, `Types.AVRO got a schema that avsc rejects: ${describeError(err)}`);
  }
  return deepFreeze(copy);
}

export function avroType(schema: unknown): AvroType {
  // avsc is loaded on first use (about 10 ms): every TaskManager imports this package, and few jobs use Avro.
  avsc ??= require('avsc') as typeof avro;
  return avsc.Type.forSchema(schema as avro.Schema);
}

/**
 * The value a new ROW field of this Avro type starts with: the schema's own defaults for
 * record fields, otherwise the zero of each type (null, false, 0, '', empty bytes, the first
 * enum symbol, the first branch of a union).
 */
export function avroDefaultValue(type: AvroType): unknown {
  switch (type.typeName) {
    case 'boolean':
      return false;
    case 'int':
    case 'long':
    case 'float':
    case 'double':
      return 0;
    case 'string':
      return '';
    case 'bytes':
      return Buffer.alloc(0);
    case 'fixed':
      return Buffer.alloc((type as avro.types.FixedType).size);
    case 'enum':
      return (type as avro.types.EnumType).symbols[0];
    case 'array':
      return [];
    case 'map':
      return {};
    case 'record':
    case 'error': {
      const value: Record<string, unknown> = {};
      for (const field of (type as avro.types.RecordType).fields) {
        const given: unknown = field.defaultValue();
        value[field.name] = given === undefined ? avroDefaultValue(field.type) : toPlain(given);
      }
      return value;
    }
    case 'union:unwrapped':
      return avroDefaultValue((type as avro.types.UnwrappedUnionType).types[0]);
    case 'union:wrapped': {
      const first = (type as avro.types.WrappedUnionType).types[0];
      return first.typeName === 'null' ? null : { [first.branchName ?? first.typeName]: avroDefaultValue(first) };
    }
    default:
      return null;
  }
}

/** avsc decodes records into instances of generated classes; state keeps plain objects, as a record or MessagePack gives them. */
export function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const plain: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) plain[key] = toPlain(v);
  return plain;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
