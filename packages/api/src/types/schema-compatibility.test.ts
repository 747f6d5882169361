import { describe, expect, it } from 'vitest';
import { resolveStateSchema } from './schema-compatibility.ts';
import { declared, incompatible, migration, saved } from './testing.ts';
import type { TypeInformation } from './type-information.ts';
import { Types } from './types.ts';

const V1 = Types.ROW({ word: Types.STRING, count: Types.NUMBER });

describe('resolveStateSchema: identical states', () => {
  it('finds a state saved and declared with the same type identical', () => {
    for (const type of [Types.STRING, Types.GENERIC(), V1, Types.POJO('W', { w: Types.STRING }), Types.AVRO('int'), Types.CUSTOM({ name: 'P', version: 3 })]) {
      expect(resolveStateSchema('s', saved(type), declared(type))).toEqual({ kind: 'identical' });
    }
    expect(resolveStateSchema('m', saved(V1, 'map', Types.STRING), declared(V1, 'map', Types.STRING))).toEqual({ kind: 'identical' });
  });

  it('needs no migration when only field order, a default, or a missing type name differ', () => {
    const reordered = Types.ROW({ count: Types.NUMBER, word: Types.STRING });
    const withDefault = Types.ROW({ word: Types.withDefault(Types.STRING, 'x'), count: Types.NUMBER });
    const named = Types.POJO('WordCount', { word: Types.STRING, count: Types.NUMBER });
    for (const now of [reordered, withDefault, named]) expect(resolveStateSchema('s', saved(V1), declared(now))).toEqual({ kind: 'identical' });
    expect(resolveStateSchema('s', saved(named), declared(V1))).toEqual({ kind: 'identical' });
  });
});

describe('resolveStateSchema: ROW evolution', () => {
  it('gives an added field its type default, without touching the restored value', () => {
    const v2 = Types.ROW({
      word: Types.STRING,
      count: Types.NUMBER,
      s: Types.STRING,
      n: Types.NUMBER,
      b: Types.BOOLEAN,
      i: Types.BIGINT,
      bytes: Types.BYTES,
      list: Types.LIST(Types.NUMBER),
      map: Types.MAP(Types.STRING, Types.NUMBER),
      row: Types.ROW({ x: Types.NUMBER, tags: Types.LIST(Types.STRING) }),
      any: Types.GENERIC(),
      custom: Types.CUSTOM({ name: 'P', version: 1 }),
      avro: Types.AVRO({ type: 'record', name: 'A', fields: [{ name: 'a', type: 'int' }, { name: 'b', type: 'string', default: 'hi' }] }),
    });
    const migrate = migration(resolveStateSchema('sum', saved(V1), declared(v2)));
    const old = Object.freeze({ word: 'a', count: 2 });
    expect(migrate(old)).toEqual({
      word: 'a',
      count: 2,
      s: '',
      n: 0,
      b: false,
      i: 0n,
      bytes: new Uint8Array(0),
      list: [],
      map: new Map(),
      row: { x: 0, tags: [] },
      any: null,
      custom: null,
      avro: { a: 0, b: 'hi' },
    });
    expect(old).toEqual({ word: 'a', count: 2 });
  });

  it('gives an added field its declared default, a fresh copy for every value', () => {
    const v2 = Types.ROW({
      word: Types.STRING,
      count: Types.NUMBER,
      tag: Types.withDefault(Types.STRING, 'none'),
      seen: Types.withDefault(Types.LIST(Types.BIGINT), [1n, 2n]),
      at: Types.withDefault(Types.ROW({ x: Types.NUMBER, y: Types.NUMBER }), { x: 5 } as never),
    });
    const migrate = migration(resolveStateSchema('sum', saved(V1), declared(v2)));
    const first = migrate({ word: 'a', count: 1 }) as { seen: bigint[] };
    const second = migrate({ word: 'b', count: 2 }) as { seen: bigint[] };
    expect(first).toEqual({ word: 'a', count: 1, tag: 'none', seen: [1n, 2n], at: { x: 5, y: 0 } });
    expect(second).toEqual({ word: 'b', count: 2, tag: 'none', seen: [1n, 2n], at: { x: 5, y: 0 } });
    expect(first.seen).not.toBe(second.seen);
  });

  it('drops a removed field', () => {
    const migrate = migration(resolveStateSchema('sum', saved(V1), declared(Types.ROW({ count: Types.NUMBER }))));
    expect(migrate({ word: 'a', count: 2 })).toEqual({ count: 2 });
  });

  it('is idempotent: a value already of the new type comes back as the same object', () => {
    const migrate = migration(resolveStateSchema('sum', saved(V1), declared(Types.ROW({ count: Types.NUMBER, tag: Types.withDefault(Types.STRING, 'none') }))));
    const once = migrate({ word: 'a', count: 2 });
    expect(once).toEqual({ count: 2, tag: 'none' });
    expect(migrate(once)).toBe(once);
    const updated = { count: 3, tag: 'set later' };
    expect(migrate(updated)).toBe(updated);
  });

  it('passes through values that are not records (null, an unset value)', () => {
    const migrate = migration(resolveStateSchema('sum', saved(V1), declared(Types.ROW({ count: Types.NUMBER }))));
    expect(migrate(null)).toBe(null);
    expect(migrate(undefined)).toBe(undefined);
  });

  it('evolves nested ROWs by the same rules, inside fields, LISTs and MAPs', () => {
    const point1 = Types.ROW({ x: Types.NUMBER, y: Types.NUMBER });
    const point2 = Types.ROW({ x: Types.NUMBER, z: Types.withDefault(Types.NUMBER, 9) });
    const before = Types.ROW({ at: point1, path: Types.LIST(point1), named: Types.MAP(Types.STRING, point1) });
    const after = Types.ROW({ at: point2, path: Types.LIST(point2), named: Types.MAP(Types.STRING, point2) });
    const migrate = migration(resolveStateSchema('route', saved(before), declared(after)));
    expect(migrate({ at: { x: 1, y: 2 }, path: [{ x: 3, y: 4 }], named: new Map([['home', { x: 5, y: 6 }]]) })).toEqual({
      at: { x: 1, z: 9 },
      path: [{ x: 3, z: 9 }],
      named: new Map([['home', { x: 5, z: 9 }]]),
    });
    // A Map inside a value comes back from MessagePack as a plain object.
    expect(migrate({ at: { x: 1, y: 2 }, path: [], named: { home: { x: 5, y: 6 } } })).toEqual({ at: { x: 1, z: 9 }, path: [], named: { home: { x: 5, z: 9 } } });
  });

  it('evolves the value type of list and map state the same way', () => {
    const v2 = Types.ROW({ word: Types.STRING, count: Types.NUMBER, tag: Types.STRING });
    expect(migration(resolveStateSchema('l', saved(V1, 'list'), declared(v2, 'list')))({ word: 'a', count: 1 })).toEqual({ word: 'a', count: 1, tag: '' });
    expect(migration(resolveStateSchema('m', saved(V1, 'map', Types.STRING), declared(v2, 'map', Types.STRING)))({ word: 'a', count: 1 })).toEqual({
      word: 'a',
      count: 1,
      tag: '',
    });
  });

  it("refuses a changed field type, naming the state, the field and both types", () => {
    expect(incompatible(() => resolveStateSchema('sum', saved(V1), declared(Types.ROW({ word: Types.STRING, count: Types.STRING }))))).toBe(
      "field 'count' of state 'sum' was NUMBER, now STRING: a type never changes across restores, except a ROW gaining or losing fields; keep the type, or store the new type under a new name",
    );
  });

  it('names the path of a nested field, through LISTs ([]) and MAP values ({})', () => {
    const nested = (t: TypeInformation<unknown>) => Types.ROW({ stats: Types.ROW({ byDay: Types.LIST(Types.MAP(Types.STRING, Types.ROW({ n: t }))) }) });
    expect(incompatible(() => resolveStateSchema('sum', saved(nested(Types.NUMBER)), declared(nested(Types.BIGINT))))).toMatch(
      /^field 'stats\.byDay\[\]\{\}\.n' of state 'sum' was NUMBER, now BIGINT: /,
    );
    expect(incompatible(() => resolveStateSchema('xs', saved(Types.LIST(Types.NUMBER)), declared(Types.LIST(Types.STRING))))).toMatch(
      /^state 'xs' at '\[\]' was NUMBER, now STRING: /,
    );
  });

  it('refuses a changed type of the whole state', () => {
    expect(incompatible(() => resolveStateSchema('sum', saved(Types.NUMBER), declared(Types.STRING)))).toBe(
      "state 'sum' was NUMBER, now STRING: a type never changes across restores, except a ROW gaining or losing fields; keep the type, or store the new type under a new name",
    );
    expect(incompatible(() => resolveStateSchema('sum', saved(V1), declared(Types.GENERIC())))).toMatch(/^state 'sum' was ROW<word: STRING, count: NUMBER>, now GENERIC: /);
  });

  it('refuses a changed type name', () => {
    const before = Types.POJO('WordCount', { word: Types.STRING });
    const after = Types.POJO('Tally', { word: Types.STRING });
    expect(incompatible(() => resolveStateSchema('sum', saved(before), declared(after)))).toBe(
      "state 'sum' was ROW WordCount<word: STRING>, now ROW Tally<word: STRING>: a ROW keeps its type name across restores; declare it as Types.POJO('WordCount', ...)",
    );
  });
});

describe('resolveStateSchema: kinds and keys never change', () => {
  it('refuses a changed state kind', () => {
    expect(incompatible(() => resolveStateSchema('sum', saved(Types.NUMBER, 'value'), declared(Types.NUMBER, 'list')))).toBe(
      "state 'sum' was value state, now list state: a state keeps its kind across restores; declare it as value state again, or give the new one another name",
    );
  });

  it("refuses a changed key type of map state, even one a ROW could evolve to", () => {
    expect(incompatible(() => resolveStateSchema('seen', saved(Types.NUMBER, 'map', Types.STRING), declared(Types.NUMBER, 'map', Types.NUMBER)))).toBe(
      "the key type of state 'seen' was STRING, now NUMBER: key types never evolve; keep STRING as the key type",
    );
    const key1 = Types.ROW({ a: Types.STRING });
    const key2 = Types.ROW({ a: Types.STRING, b: Types.STRING });
    expect(incompatible(() => resolveStateSchema('seen', saved(Types.NUMBER, 'map', key1), declared(Types.NUMBER, 'map', key2)))).toBe(
      "the key type of state 'seen' was ROW<a: STRING>, now ROW<a: STRING, b: STRING>: key types never evolve; keep ROW<a: STRING> as the key type",
    );
  });

  it('refuses a changed key type of a MAP inside a value', () => {
    const before = Types.ROW({ scores: Types.MAP(Types.STRING, Types.NUMBER) });
    const after = Types.ROW({ scores: Types.MAP(Types.BIGINT, Types.NUMBER) });
    expect(incompatible(() => resolveStateSchema('sum', saved(before), declared(after)))).toBe(
      "the key type of field 'scores' of state 'sum' was STRING, now BIGINT: key types never evolve; keep STRING as the key type",
    );
  });
});
