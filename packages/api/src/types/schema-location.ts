import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { TypeDescription } from './type-information.ts';
import { typeName } from './type-names.ts';

/**
 * Where in a state a schema check stands: the state's name and the path of ROW fields from
 * its value type down, with `[]` for the elements of a LIST and `{}` for the values of a MAP
 * ('' is the value type itself), as in `items[].count`.
 */
export interface SchemaLocation {
  readonly state: string;
  readonly path: string;
}

export function stateLocation(state: string): SchemaLocation {
  return { state, path: '' };
}

export function fieldLocation(at: SchemaLocation, field: string): SchemaLocation {
  return { state: at.state, path: at.path === '' ? field : `${at.path}.${field}` };
}

export function elementLocation(at: SchemaLocation): SchemaLocation {
  return { state: at.state, path: `${at.path}[]` };
}

export function mapValueLocation(at: SchemaLocation): SchemaLocation {
  return { state: at.state, path: `${at.path}{}` };
}

export function describeLocation(at: SchemaLocation): string {
  if (at.path === '') return `state '${at.state}'`;
  if (at.path.startsWith('[') || at.path.startsWith('{')) return `state '${at.state}' at '${at.path}'`;
  return `field '${at.path}' of state '${at.state}'`;
}

/** The restored values at `at` cannot be read as the type declared now; `remedy` says what would work. */
export function incompatibleType(at: SchemaLocation, restored: TypeDescription, current: TypeDescription, remedy: string): WeirError {
  return new WeirError(
    ApiErrorCode.INCOMPATIBLE_STATE_SCHEMA,
    `${describeLocation(at)} was ${typeName(restored)}, now ${typeName(current)}: ${remedy}`,
  );
}

/** A changed key type: keys pick key groups and map entries, so they never evolve. */
export function incompatibleKey(at: SchemaLocation, restored: TypeDescription | undefined, current: TypeDescription | undefined): WeirError {
  const name = (type: TypeDescription | undefined): string => (type === undefined ? 'none' : typeName(type));
  return new WeirError(
    ApiErrorCode.INCOMPATIBLE_STATE_SCHEMA,
    `the key type of ${describeLocation(at)} was ${name(restored)}, now ${name(current)}: key types never evolve; keep ${name(restored)} as the key type`,
  );
}

/** One restored value could not be migrated. */
export function migrationFailed(at: SchemaLocation, current: TypeDescription, reason: string): WeirError {
  return new WeirError(ApiErrorCode.STATE_MIGRATION_FAILED, `a value of ${describeLocation(at)} could not be migrated to ${typeName(current)}: ${reason}`);
}
