import { fieldDefault } from './default-values.ts';
import type { Migration } from './migration.ts';
import { fieldLocation, incompatibleType, type SchemaLocation } from './schema-location.ts';
import type { RowDescription, TypeDescription } from './type-information.ts';

type ResolveType = (restored: TypeDescription, current: TypeDescription, at: SchemaLocation) => Migration | null;

/** What becomes of one field of the declared ROW in a restored value. */
type FieldStep =
  | { readonly field: string; readonly kind: 'keep' }
  | { readonly field: string; readonly kind: 'migrate'; readonly migrate: Migration }
  | { readonly field: string; readonly kind: 'add' };

/**
 * Flink's POJO evolution: a field may be added (restored values get its default) or removed
 * (dropped from restored values); a kept field evolves by its own type's rules; a changed
 * type name is incompatible (a ROW that had no name may gain one, and the other way round).
 */
export function resolveRow(restored: RowDescription, current: RowDescription, at: SchemaLocation, resolveType: ResolveType): Migration | null {
  if (restored.name !== undefined && current.name !== undefined && restored.name !== current.name) {
    throw incompatibleType(at, restored, current, `a ROW keeps its type name across restores; declare it as Types.POJO('${restored.name}', ...)`);
  }
  const steps: FieldStep[] = [];
  for (const [field, type] of Object.entries(current.fields)) {
    if (!Object.hasOwn(restored.fields, field)) {
      steps.push({ field, kind: 'add' });
      continue;
    }
    const migrate = resolveType(restored.fields[field], type, fieldLocation(at, field));
    steps.push(migrate === null ? { field, kind: 'keep' } : { field, kind: 'migrate', migrate });
  }
  const removesFields = Object.keys(restored.fields).some((field) => !Object.hasOwn(current.fields, field));
  if (!removesFields && steps.every((step) => step.kind === 'keep')) return null;
  return (value) => (isRecord(value) ? migrateRecord(value, steps, current) : value);
}

/** The record with the declared fields only, in their order; the same object when it already is one. */
function migrateRecord(value: Record<string, unknown>, steps: readonly FieldStep[], row: RowDescription): Record<string, unknown> {
  let changed = Object.keys(value).length !== steps.length;
  const out: Record<string, unknown> = {};
  for (const step of steps) {
    if (!Object.hasOwn(value, step.field)) {
      out[step.field] = fieldDefault(row, step.field);
      changed = true;
      continue;
    }
    const old = value[step.field];
    const migrated = step.kind === 'migrate' ? step.migrate(old) : old;
    changed ||= migrated !== old;
    out[step.field] = migrated;
  }
  return changed ? out : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Map) && !ArrayBuffer.isView(value);
}
