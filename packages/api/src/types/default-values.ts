import { isDeepStrictEqual } from 'node:util';
import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { avroDefaultValue, avroType } from './avro-schema.ts';
import type { RowDescription, TypeDescription } from './type-information.ts';
import { typeName } from './type-names.ts';

/**
 * The value a ROW field added across a restore starts with when no default was given for it,
 * as a new Flink POJO field starts with null or zero: '' / 0 / false / 0n / empty bytes /
 * [] / an empty Map / a ROW of its fields' defaults / the Avro type's default / null for
 * GENERIC and CUSTOM. A fresh value on every call, so no two states share a mutable default.
 */
export function defaultValueOf(type: TypeDescription): unknown {
  switch (type.kind) {
    case 'STRING':
      return '';
    case 'NUMBER':
      return 0;
    case 'BOOLEAN':
      return false;
    case 'BIGINT':
      return 0n;
    case 'BYTES':
      return new Uint8Array(0);
    case 'LIST':
      return [];
    case 'MAP':
      return new Map();
    case 'ROW':
      return rowDefault(type);
    case 'AVRO':
      return avroDefaultValue(avroType(type.schema));
    default:
      return null;
  }
}

/** The value of field `field` of `row` in a value that lacks it: its declared default, else its type's. */
export function fieldDefault(row: RowDescription, field: string): unknown {
  const type = row.fields[field];
  return row.defaults !== undefined && Object.hasOwn(row.defaults, field) ? decodeDefault(type, row.defaults[field]) : defaultValueOf(type);
}

function rowDefault(row: RowDescription): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of Object.keys(row.fields)) value[field] = fieldDefault(row, field);
  return value;
}

/**
 * A field default as it is stored in the ROW's description, which travels as JSON in
 * `_metadata`: BIGINT as its decimal text, BYTES as base64, a MAP as its [key, value] pairs,
 * a ROW as an object of its fields; GENERIC, AVRO and CUSTOM defaults must be JSON already.
 * Throws INVALID_TYPE when the value is not of the type.
 */
export function encodeDefault(type: TypeDescription, value: unknown, where: string): unknown {
  const wrong = (expected: string): WeirError =>
    new WeirError(ApiErrorCode.INVALID_TYPE, `the default of ${where} must be ${expected} to fit ${typeName(type)}, got ${describeValue(value)}`);
  switch (type.kind) {
    case 'STRING':
    case 'BOOLEAN':
      if (typeof value !== type.kind.toLowerCase()) throw wrong(`a ${type.kind.toLowerCase()}`);
      return value;
    case 'NUMBER':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong('a finite number');
      return value;
    case 'BIGINT':
      if (typeof value !== 'bigint') throw wrong('a bigint');
      return value.toString();
    case 'BYTES':
      if (!(value instanceof Uint8Array)) throw wrong('a Uint8Array');
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
    case 'LIST':
      if (!Array.isArray(value)) throw wrong('an array');
      return value.map((element, i) => encodeDefault(type.element, element, `${where}, element ${i}`));
    case 'MAP': {
      if (!(value instanceof Map)) throw wrong('a Map');
      return [...value].map(([k, v]) => [encodeDefault(type.key, k, `${where}, a key`), encodeDefault(type.value, v, `${where}, a value`)]);
    }
    case 'ROW': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw wrong('an object of the ROW fields');
      const encoded: Record<string, unknown> = {};
      for (const [field, fieldType] of Object.entries(type.fields)) {
        const fieldValue = (value as Record<string, unknown>)[field];
        if (fieldValue !== undefined) encoded[field] = encodeDefault(fieldType, fieldValue, `${where}, field '${field}'`);
      }
      return encoded;
    }
    default: {
      let json: unknown;
      try {
        json = JSON.parse(JSON.stringify(value) ?? 'undefined');
      } catch {
        throw wrong('a JSON value');
      }
      if (!isDeepStrictEqual(json, value)) throw wrong('a JSON value');
      return json;
    }
  }
}

/** The inverse of encodeDefault; a ROW default's missing fields take their own defaults. */
export function decodeDefault(type: TypeDescription, json: unknown): unknown {
  switch (type.kind) {
    case 'BIGINT':
      return BigInt(json as string);
    case 'BYTES':
      return new Uint8Array(Buffer.from(json as string, 'base64'));
    case 'LIST':
      return (json as unknown[]).map((element) => decodeDefault(type.element, element));
    case 'MAP':
      return new Map((json as [unknown, unknown][]).map(([k, v]) => [decodeDefault(type.key, k), decodeDefault(type.value, v)]));
    case 'ROW': {
      const given = json as Record<string, unknown>;
      const value: Record<string, unknown> = {};
      for (const [field, fieldType] of Object.entries(type.fields)) {
        value[field] = Object.hasOwn(given, field) ? decodeDefault(fieldType, given[field]) : fieldDefault(type, field);
      }
      return value;
    }
    default:
      return json !== null && typeof json === 'object' ? structuredClone(json) : json;
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return `'${value}'`;
  if (value instanceof Map) return 'a Map';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return `a ${value.constructor?.name ?? 'null-prototype'} object`;
  return String(value);
}
