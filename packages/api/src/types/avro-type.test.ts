import { describe, expect, it } from 'vitest';
import { resolveStateSchema } from './schema-compatibility.ts';
import { declared, failure, incompatible, migration, saved } from './testing.ts';
import { Types } from './types.ts';

describe('resolveStateSchema: AVRO evolves by Avro resolution', () => {
  const v1 = Types.AVRO({ type: 'record', name: 'Count', fields: [{ name: 'word', type: 'string' }, { name: 'n', type: 'int' }] });

  it('adds a field with its schema default, drops a removed one, widens a number', () => {
    const v2 = Types.AVRO({
      type: 'record',
      name: 'Count',
      fields: [
        { name: 'n', type: 'long' },
        { name: 'tag', type: 'string', default: 'none' },
      ],
    });
    const migrate = migration(resolveStateSchema('counts', saved(v1), declared(v2)));
    const migrated = migrate({ word: 'a', n: 3 });
    expect(migrated).toEqual({ n: 3, tag: 'none' });
    expect(Object.getPrototypeOf(migrated)).toBe(Object.prototype);
    expect(migrate(migrated)).toBe(migrated);
    const updated = { n: 4, tag: 'set later' };
    expect(migrate(updated)).toBe(updated);
  });

  it('fills in a field added with a default to a value that avsc already counts as valid', () => {
    const v2 = Types.AVRO({ type: 'record', name: 'Count', fields: [{ name: 'word', type: 'string' }, { name: 'n', type: 'int' }, { name: 'tag', type: 'string', default: 'none' }] });
    const migrate = migration(resolveStateSchema('counts', saved(v1), declared(v2)));
    expect(migrate({ word: 'a', n: 3 })).toEqual({ word: 'a', n: 3, tag: 'none' });
    const updated = { word: 'a', n: 3, tag: 'set later' };
    expect(migrate(updated)).toBe(updated);
  });

  it('keeps values as plain objects through nested records', () => {
    const inner = (fields: object[]) => ({ type: 'record', name: 'P', fields });
    const before = Types.AVRO({ type: 'record', name: 'Outer', fields: [{ name: 'p', type: inner([{ name: 'x', type: 'int' }]) }] });
    const after = Types.AVRO({ type: 'record', name: 'Outer', fields: [{ name: 'p', type: inner([{ name: 'x', type: 'int' }, { name: 'y', type: 'int', default: 7 }]) }] });
    const migrated = migration(resolveStateSchema('o', saved(before), declared(after)))({ p: { x: 1 } }) as { p: object };
    expect(migrated).toEqual({ p: { x: 1, y: 7 } });
    expect(Object.getPrototypeOf(migrated.p)).toBe(Object.prototype);
  });

  it("refuses a change Avro's rules reject, with avsc's reason", () => {
    const noDefault = Types.AVRO({ type: 'record', name: 'Count', fields: [{ name: 'word', type: 'string' }, { name: 'n', type: 'int' }, { name: 'tag', type: 'string' }] });
    expect(incompatible(() => resolveStateSchema('counts', saved(v1), declared(noDefault)))).toBe(
      "state 'counts' was AVRO<Count>, now AVRO<Count>: Avro's resolution rules reject the change (no matching field for default-less Count.tag); evolve the schema as Avro allows: add fields with a default, remove fields, widen numbers",
    );
    const narrowed = Types.AVRO({ type: 'record', name: 'Count', fields: [{ name: 'word', type: 'int' }] });
    expect(incompatible(() => resolveStateSchema('counts', saved(v1), declared(narrowed)))).toBe(
      "state 'counts' was AVRO<Count>, now AVRO<Count>: Avro's resolution rules reject the change (cannot read \"string\" as \"int\"); evolve the schema as Avro allows: add fields with a default, remove fields, widen numbers",
    );
  });

  it('fails a value that fits neither schema as STATE_MIGRATION_FAILED', () => {
    const v2 = Types.AVRO({ type: 'record', name: 'Count', fields: [{ name: 'n', type: 'long' }] });
    const migrate = migration(resolveStateSchema('counts', saved(v1), declared(v2)));
    expect(failure('STATE_MIGRATION_FAILED', () => migrate({ word: 1 }))).toMatch(
      /^a value of state 'counts' could not be migrated to AVRO<Count>: it does not fit the saved Avro schema either \(/,
    );
  });
});
