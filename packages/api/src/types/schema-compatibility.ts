import { WeirError, type StateMetaInfo } from '@weir/common';
import { isDeepStrictEqual } from 'node:util';
import { ApiErrorCode } from '../errors.ts';
import { resolveType } from './resolve-type.ts';
import { incompatibleKey, stateLocation } from './schema-location.ts';
import type { TypeDescription } from './type-information.ts';

/**
 * How restored values of one state become values of the type the job declares now: as they
 * are, or through `migrate`, applied to each stored value (the value of value and reducing
 * state, each element of list state, each value of map state). `migrate` is pure and returns
 * a value already of the new type unchanged, so applying it twice is harmless.
 */
export type StateSchemaResolution =
  | { readonly kind: 'identical' }
  | {
      readonly kind: 'migrate';
      /** Turns one restored value into a value of the current type. */
      readonly migrate: (value: unknown) => unknown;
    };

const IDENTICAL: StateSchemaResolution = Object.freeze({ kind: 'identical' });

/**
 * Compares a state's restored description with the one its descriptor gives now (Flink's
 * TypeSerializerSchemaCompatibility). Throws INCOMPATIBLE_STATE_SCHEMA naming the state, the
 * field and both types when the restored values cannot be read as the new type: a changed
 * state kind or key type, a changed field type or ROW type name, an Avro change that Avro's
 * resolution rules reject, a custom type of another name, of a newer version, or of an older
 * one without a migrate.
 *
 * `current` must carry the objects describe() returned (not a JSON copy): a custom type's
 * migrate is found through its description object.
 */
export function resolveStateSchema(stateName: string, restored: StateMetaInfo, current: StateMetaInfo): StateSchemaResolution {
  if (restored.kind !== current.kind) {
    throw new WeirError(
      ApiErrorCode.INCOMPATIBLE_STATE_SCHEMA,
      `state '${stateName}' was ${restored.kind} state, now ${current.kind} state: a state keeps its kind across restores; declare it as ${restored.kind} state again, or give the new one another name`,
    );
  }
  if (!isDeepStrictEqual(restored.keyType, current.keyType)) {
    throw incompatibleKey(stateLocation(stateName), restored.keyType as TypeDescription | undefined, current.keyType as TypeDescription | undefined);
  }
  if (isDeepStrictEqual(restored.type, current.type)) return IDENTICAL;
  const migrate = resolveType(restored.type as TypeDescription, current.type as TypeDescription, stateLocation(stateName));
  return migrate === null ? IDENTICAL : Object.freeze({ kind: 'migrate', migrate });
}
