import { WeirError, describeError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { Migration } from './migration.ts';
import { incompatibleType, migrationFailed, type SchemaLocation } from './schema-location.ts';
import type { CustomDescription, TypeInformation } from './type-information.ts';
import { typeName } from './type-names.ts';
import { registerStructure } from './type-structure.ts';

/** What Types.CUSTOM takes: Flink's TypeSerializerSnapshot, reduced to a name, a version and a migration. */
export interface CustomTypeOptions<T> {
  /** Stable name of the type; a restore refuses state of another name. */
  readonly name: string;
  /** An integer >= 1, raised whenever the shape of the values changes. */
  readonly version: number;
  /**
   * Turns a value written by version `fromVersion` (lower than `version`) into one of this
   * version. The runtime may apply it to a value it already migrated, so it must return a
   * value of the current version unchanged (check a field the new version added, say).
   */
  readonly migrate?: (value: unknown, fromVersion: number) => T;
  /**
   * For records of a stream declared with this type: turns a value into one that can travel
   * between tasks (plain objects, arrays, Maps, Sets, strings, numbers...); `deserialize`
   * turns it back on arrival. Give both, or neither (values then travel as they are, and a
   * class instance among them is refused).
   */
  readonly serialize?: (value: T) => unknown;
  /** Turns what `serialize` made back into a value, on arrival. */
  readonly deserialize?: (data: unknown) => T;
}

/**
 * Migrations by the description object they belong to: a description is JSON and has no
 * room for a function, and the runtime hands resolveStateSchema the very object that
 * describe() returned.
 */
const migrations = new WeakMap<CustomDescription, (value: unknown, fromVersion: number) => unknown>();

export class CustomType<T> implements TypeInformation<T> {
  readonly name: string;
  readonly #description: CustomDescription;

  constructor(options: CustomTypeOptions<T>) {
    const { name, version, migrate, serialize, deserialize } = options ?? ({} as CustomTypeOptions<T>);
    if (typeof name !== 'string' || name.trim() === '') {
      throw new WeirError(ApiErrorCode.INVALID_TYPE, `Types.CUSTOM needs a non-empty name, as in Types.CUSTOM({ name: 'Point', version: 1 }), got ${String(name)}`);
    }
    if (!Number.isInteger(version) || version < 1) {
      throw new WeirError(ApiErrorCode.INVALID_TYPE, `Types.CUSTOM '${name}' needs a version that is an integer >= 1, got ${String(version)}`);
    }
    if (migrate !== undefined && typeof migrate !== 'function') {
      throw new WeirError(ApiErrorCode.INVALID_TYPE, `Types.CUSTOM '${name}': migrate must be a function (value, fromVersion) => value, got ${typeof migrate}`);
    }
    if ((serialize === undefined) !== (deserialize === undefined) || (serialize !== undefined && (typeof serialize !== 'function' || typeof deserialize !== 'function'))) {
      throw new WeirError(ApiErrorCode.INVALID_TYPE, `Types.CUSTOM '${name}': give serialize and deserialize as a pair of functions, or neither`);
    }
    this.#description = Object.freeze({ kind: 'CUSTOM', name, version });
    if (migrate !== undefined) migrations.set(this.#description, migrate);
    registerStructure(this, {
      kind: 'CUSTOM',
      name,
      serialize: serialize as ((value: unknown) => unknown) | undefined,
      deserialize: deserialize as ((data: unknown) => unknown) | undefined,
    });
    this.name = typeName(this.#description);
    Object.freeze(this);
  }

  describe(): CustomDescription {
    return this.#description;
  }

  toString(): string {
    return this.name;
  }
}

/** Same name and version: as is; an older version: through the type's migrate; anything else is incompatible. */
export function resolveCustom(restored: CustomDescription, current: CustomDescription, at: SchemaLocation): Migration | null {
  if (restored.name !== current.name) {
    throw incompatibleType(at, restored, current, `a custom type keeps its name across restores; declare it as Types.CUSTOM({ name: '${restored.name}', ... })`);
  }
  if (restored.version === current.version) return null;
  if (restored.version > current.version) {
    throw incompatibleType(at, restored, current, `the state was written by a newer version of '${current.name}'; restore it with version ${restored.version} or later`);
  }
  const migrate = migrations.get(current);
  if (migrate === undefined) {
    throw incompatibleType(at, restored, current, `version ${current.version} of '${current.name}' declares no migrate, so it cannot read version ${restored.version}; give Types.CUSTOM a migrate(value, fromVersion)`);
  }
  return (value) => {
    try {
      return migrate(value, restored.version);
    } catch (err) {
      throw migrationFailed(at, current, `migrate from version ${restored.version} threw: ${describeError(err)}`);
    }
  };
}
