import { describe, expect, it } from 'vitest';
import { resolveStateSchema } from './schema-compatibility.ts';
import { declared, failure, incompatible, migration, saved } from './testing.ts';
import { Types } from './types.ts';

describe('resolveStateSchema: CUSTOM types migrate by version', () => {
  const v1 = Types.CUSTOM<{ x: number }>({ name: 'Point', version: 1 });
  const v3 = Types.CUSTOM<{ x: number; y: number }>({
    name: 'Point',
    version: 3,
    migrate: (value, fromVersion) => {
      const p = value as { x: number; y?: number };
      return p.y === undefined ? { x: p.x, y: fromVersion * 100 } : (p as { x: number; y: number });
    },
  });

  it('migrates an older version with the fromVersion it was saved as', () => {
    const migrate = migration(resolveStateSchema('p', saved(v1), declared(v3)));
    const once = migrate({ x: 1 });
    expect(once).toEqual({ x: 1, y: 100 });
    expect(migrate(once)).toBe(once);
  });

  it('migrates a CUSTOM field inside a ROW', () => {
    const migrate = migration(resolveStateSchema('r', saved(Types.ROW({ p: v1 })), declared(Types.ROW({ p: v3 }))));
    expect(migrate({ p: { x: 2 } })).toEqual({ p: { x: 2, y: 100 } });
  });

  it('refuses a newer version, an older one without migrate, and another name', () => {
    expect(incompatible(() => resolveStateSchema('p', saved(v3), declared(v1)))).toBe(
      "state 'p' was CUSTOM<Point, version 3>, now CUSTOM<Point, version 1>: the state was written by a newer version of 'Point'; restore it with version 3 or later",
    );
    const v2 = Types.CUSTOM({ name: 'Point', version: 2 });
    expect(incompatible(() => resolveStateSchema('p', saved(v1), declared(v2)))).toBe(
      "state 'p' was CUSTOM<Point, version 1>, now CUSTOM<Point, version 2>: version 2 of 'Point' declares no migrate, so it cannot read version 1; give Types.CUSTOM a migrate(value, fromVersion)",
    );
    const other = Types.CUSTOM({ name: 'Vector', version: 1 });
    expect(incompatible(() => resolveStateSchema('p', saved(v1), declared(other)))).toBe(
      "state 'p' was CUSTOM<Point, version 1>, now CUSTOM<Vector, version 1>: a custom type keeps its name across restores; declare it as Types.CUSTOM({ name: 'Point', ... })",
    );
  });

  it('cannot find the migrate of a description that was copied, so the runtime must pass describe() as is', () => {
    expect(incompatible(() => resolveStateSchema('p', saved(v1), saved(v3)))).toMatch(/declares no migrate/);
  });

  it('reports a migrate that throws as STATE_MIGRATION_FAILED', () => {
    const broken = Types.CUSTOM({
      name: 'Point',
      version: 2,
      migrate: () => {
        throw new Error('no x');
      },
    });
    const migrate = migration(resolveStateSchema('p', saved(v1), declared(broken)));
    expect(failure('STATE_MIGRATION_FAILED', () => migrate({}))).toBe(
      "a value of state 'p' could not be migrated to CUSTOM<Point, version 2>: migrate from version 1 threw: no x",
    );
  });
});
