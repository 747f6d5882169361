import { isDeepStrictEqual } from 'node:util';
import { resolveAvro } from './avro-type.ts';
import { resolveCustom } from './custom-type.ts';
import type { Migration } from './migration.ts';
import { resolveRow } from './resolve-row.ts';
import { elementLocation, incompatibleKey, incompatibleType, mapValueLocation, type SchemaLocation } from './schema-location.ts';
import type { AvroDescription, CustomDescription, RowDescription, TypeDescription } from './type-information.ts';

/**
 * How values of `restored` become values of `current`: null when they are already, a
 * Migration when they need one; throws INCOMPATIBLE_STATE_SCHEMA when they cannot. ROWs
 * evolve field by field, LISTs and MAP values evolve with their element, AVRO by Avro's
 * rules, CUSTOM by its migrate; anything else must stay the same type.
 */
export function resolveType(restored: TypeDescription, current: TypeDescription, at: SchemaLocation): Migration | null {
  if (restored.kind !== current.kind) {
    throw incompatibleType(at, restored, current, 'a type never changes across restores, except a ROW gaining or losing fields; keep the type, or store the new type under a new name');
  }
  switch (current.kind) {
    case 'LIST':
      return resolveList(restored as typeof current, current, at);
    case 'MAP':
      return resolveMap(restored as typeof current, current, at);
    case 'ROW':
      return resolveRow(restored as RowDescription, current, at, resolveType);
    case 'AVRO':
      return resolveAvro(restored as AvroDescription, current, at);
    case 'CUSTOM':
      return resolveCustom(restored as CustomDescription, current, at);
    default:
      return null;
  }
}

type ListDescription = Extract<TypeDescription, { kind: 'LIST' }>;
type MapDescription = Extract<TypeDescription, { kind: 'MAP' }>;

function resolveList(restored: ListDescription, current: ListDescription, at: SchemaLocation): Migration | null {
  const element = resolveType(restored.element, current.element, elementLocation(at));
  if (element === null) return null;
  return (value) => (Array.isArray(value) ? mapArray(value, element) : value);
}

function resolveMap(restored: MapDescription, current: MapDescription, at: SchemaLocation): Migration | null {
  if (!isDeepStrictEqual(restored.key, current.key)) throw incompatibleKey(at, restored.key, current.key);
  const migrate = resolveType(restored.value, current.value, mapValueLocation(at));
  if (migrate === null) return null;
  return (value) => {
    if (value instanceof Map) return mapMapValues(value, migrate);
    // A Map inside a state value comes back from MessagePack as a plain object.
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value)) return mapObjectValues(value as Record<string, unknown>, migrate);
    return value;
  };
}

function mapArray(values: readonly unknown[], migrate: Migration): unknown[] {
  const out = values.map(migrate);
  return out.every((v, i) => v === values[i]) ? (values as unknown[]) : out;
}

function mapMapValues(map: Map<unknown, unknown>, migrate: Migration): Map<unknown, unknown> {
  let changed = false;
  const out = new Map<unknown, unknown>();
  for (const [k, v] of map) {
    const migrated = migrate(v);
    changed ||= migrated !== v;
    out.set(k, migrated);
  }
  return changed ? out : map;
}

function mapObjectValues(object: Record<string, unknown>, migrate: Migration): Record<string, unknown> {
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(object)) {
    const migrated = migrate(v);
    changed ||= migrated !== v;
    out[k] = migrated;
  }
  return changed ? out : object;
}
