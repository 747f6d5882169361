import { resolveStateSchema } from '@weir/api';
import type { StateMetaInfo } from '@weir/common';

/** Turns one stored value of a state (as the backend holds it: list arrays, map state's Map of [userKey, value]) into the declared type's. */
export type StoredValueMigration = (stored: unknown) => unknown;

/**
 * Schema evolution at registration: the restored description of a state against the one its
 * descriptor gives now. Undefined when the values can be read as they are; resolveStateSchema
 * throws (failing the task) when they cannot be read at all.
 */
export function storedValueMigration(name: string, restored: StateMetaInfo, current: StateMetaInfo): StoredValueMigration | undefined {
  const resolution = resolveStateSchema(name, restored, current);
  if (resolution.kind === 'identical') return undefined;
  // TTL state stores [value, stampedAt]: only the value evolves.
  const migrate = current.ttl === undefined ? resolution.migrate : ([value, at]: [unknown, number]): [unknown, number] => [resolution.migrate(value), at];
  const migrateOne = migrate as (value: unknown) => unknown;
  switch (current.kind) {
    case 'list':
      return (stored) => (stored as unknown[]).map(migrateOne);
    case 'map':
      return (stored) => {
        const migrated = new Map<unknown, [unknown, unknown]>();
        for (const [normalized, [key, value]] of stored as Map<unknown, [unknown, unknown]>) migrated.set(normalized, [key, migrateOne(value)]);
        return migrated;
      };
    default:
      return migrateOne;
  }
}
