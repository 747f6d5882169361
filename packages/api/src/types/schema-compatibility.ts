import { WeirError, type StateMetaInfo } from '@weir/common';
import { isDeepStrictEqual } from 'node:util';
import { ApiErrorCode } from '../errors.ts';

/**
 * How restored values of one state become values of the type the job declares now: as they
 * are, or through `migrate`, applied to each stored value (the value of value and reducing
 * state, each element of list state, each value of map state). `migrate` is pure and returns
 * a value already of the new type unchanged, so applying it twice is harmless.
 */
export type StateSchemaResolution =
  | { readonly kind: 'identical' }
  | { readonly kind: 'migrate'; readonly migrate: (value: unknown) => unknown };

/**
 * Compares a state's restored description with the one its descriptor gives now (Flink's
 * TypeSerializerSchemaCompatibility). Throws INCOMPATIBLE_STATE_SCHEMA naming the state, the
 * field and both types when the restored values cannot be read as the new type.
 */
export function resolveStateSchema(stateName: string, restored: StateMetaInfo, current: StateMetaInfo): StateSchemaResolution {
  if (restored.kind === current.kind && isDeepStrictEqual(restored.type, current.type) && isDeepStrictEqual(restored.keyType, current.keyType)) {
    return { kind: 'identical' };
  }
  throw new WeirError(
    ApiErrorCode.INCOMPATIBLE_STATE_SCHEMA,
    `state '${stateName}' was saved as ${JSON.stringify(restored)} and is now declared as ${JSON.stringify(current)}; keep its type, or evolve it compatibly`,
  );
}
