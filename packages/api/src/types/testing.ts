import { isWeirError, type StateMetaInfo } from '@weir/common';
import type { StateSchemaResolution } from './schema-compatibility.ts';
import type { TypeInformation } from './type-information.ts';

/** A state's meta as the runtime builds it from the descriptor: the objects describe() returned. */
export function declared(type: TypeInformation<unknown>, kind: StateMetaInfo['kind'] = 'value', keyType?: TypeInformation<unknown>): StateMetaInfo {
  return keyType === undefined ? { kind, type: type.describe() } : { kind, type: type.describe(), keyType: keyType.describe() };
}

/** A state's meta as a checkpoint's `_metadata` gives it back: JSON. */
export function saved(type: TypeInformation<unknown>, kind: StateMetaInfo['kind'] = 'value', keyType?: TypeInformation<unknown>): StateMetaInfo {
  return JSON.parse(JSON.stringify(declared(type, kind, keyType))) as StateMetaInfo;
}

export function migration(resolution: StateSchemaResolution): (value: unknown) => unknown {
  if (resolution.kind !== 'migrate') throw new Error(`expected a migration, got ${resolution.kind}`);
  return resolution.migrate;
}

/** The message of the WeirError with `code` that `run` throws. */
export function failure(code: string, run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (isWeirError(err, code)) return err.message;
    throw err;
  }
  throw new Error(`no ${code} thrown`);
}

export const incompatible = (run: () => unknown): string => failure('INCOMPATIBLE_STATE_SCHEMA', run);
