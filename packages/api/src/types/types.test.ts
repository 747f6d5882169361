import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { typeStructure } from './type-structure.ts';
import { Types } from './types.ts';

function invalidTypeMessage(build: () => unknown): string {
  try {
    build();
  } catch (err) {
    expect(isWeirError(err, 'INVALID_TYPE')).toBe(true);
    return (err as Error).message;
  }
  return expect.unreachable('no INVALID_TYPE thrown');
}

describe('Types', () => {
  it('names and describes the basic types', () => {
    expect([Types.STRING, Types.NUMBER, Types.BOOLEAN, Types.BIGINT, Types.BYTES, Types.GENERIC()].map((t) => [t.name, t.describe()])).toEqual([
      ['STRING', { kind: 'STRING' }],
      ['NUMBER', { kind: 'NUMBER' }],
      ['BOOLEAN', { kind: 'BOOLEAN' }],
      ['BIGINT', { kind: 'BIGINT' }],
      ['BYTES', { kind: 'BYTES' }],
      ['GENERIC', { kind: 'GENERIC' }],
    ]);
  });

  it('names and describes composite types, nested', () => {
    const row = Types.ROW({ word: Types.STRING, counts: Types.LIST(Types.NUMBER), tags: Types.MAP(Types.STRING, Types.BOOLEAN) });
    expect(row.name).toBe('ROW<word: STRING, counts: LIST<NUMBER>, tags: MAP<STRING, BOOLEAN>>');
    expect(row.describe()).toEqual({
      kind: 'ROW',
      fields: {
        word: { kind: 'STRING' },
        counts: { kind: 'LIST', element: { kind: 'NUMBER' } },
        tags: { kind: 'MAP', key: { kind: 'STRING' }, value: { kind: 'BOOLEAN' } },
      },
    });
    expect(JSON.parse(JSON.stringify(row.describe()))).toEqual(row.describe());
  });

  it('describes a ROW without name or defaults byte for byte as before they existed', () => {
    const row = Types.ROW({ word: Types.STRING, count: Types.NUMBER });
    expect(JSON.stringify(row.describe())).toBe('{"kind":"ROW","fields":{"word":{"kind":"STRING"},"count":{"kind":"NUMBER"}}}');
  });

  it('rejects a ROW without fields and a field that is not a type', () => {
    for (const bad of [() => Types.ROW({}), () => Types.ROW({ word: 'STRING' as never }), () => Types.LIST(undefined as never)]) {
      invalidTypeMessage(bad);
    }
    expect(invalidTypeMessage(() => Types.ROW({}))).toBe('Types.ROW needs at least one field, as in Types.ROW({ word: Types.STRING })');
    expect(invalidTypeMessage(() => Types.LIST(Types.withDefault(Types.STRING, 'x') as never))).toBe(
      'the element type of Types.LIST must be a TypeInformation such as Types.STRING, got [object Object] (Types.withDefault only declares a ROW field)',
    );
  });

  it('names and describes a POJO: a ROW with a type name', () => {
    const pojo = Types.POJO('WordCount', { word: Types.STRING, count: Types.NUMBER });
    expect(pojo.name).toBe('ROW WordCount<word: STRING, count: NUMBER>');
    expect(JSON.stringify(pojo.describe())).toBe('{"kind":"ROW","name":"WordCount","fields":{"word":{"kind":"STRING"},"count":{"kind":"NUMBER"}}}');
    expect(invalidTypeMessage(() => Types.POJO('', { word: Types.STRING }))).toBe(
      "Types.POJO needs a class or a non-empty type name, as in Types.POJO(WordCount, { word: Types.STRING }) or Types.POJO('WordCount', { word: Types.STRING }), got ",
    );
    class Tally {
      sum = 0;
    }
    const withClass = Types.POJO(Tally, { sum: Types.NUMBER });
    expect(withClass.name).toBe('ROW Tally<sum: NUMBER>');
    expect(typeStructure(withClass as never)).toMatchObject({ kind: 'ROW', name: 'Tally', pojoClass: Tally });
    expect(invalidTypeMessage(() => Types.POJO(class {}, { sum: Types.NUMBER }))).toMatch(/^Types.POJO got an anonymous class; give the class a name/);
    expect(invalidTypeMessage(() => Types.POJO('WordCount', {}))).toBe("Types.POJO('WordCount', ...) needs at least one field, as in Types.POJO('WordCount', { word: Types.STRING })");
  });

  it('stores field defaults in the ROW description as JSON, and keeps the field type plain', () => {
    const row = Types.ROW({
      count: Types.NUMBER,
      tag: Types.withDefault(Types.STRING, 'none'),
      big: Types.withDefault(Types.BIGINT, 12345678901234567890n),
      raw: Types.withDefault(Types.BYTES, new Uint8Array([1, 2, 255])),
      seen: Types.withDefault(Types.MAP(Types.STRING, Types.NUMBER), new Map([['a', 1]])),
      inner: Types.withDefault(Types.ROW({ x: Types.NUMBER, y: Types.NUMBER }), { x: 3, y: 4 }),
    });
    expect(row.name).toBe('ROW<count: NUMBER, tag: STRING, big: BIGINT, raw: BYTES, seen: MAP<STRING, NUMBER>, inner: ROW<x: NUMBER, y: NUMBER>>');
    expect(row.describe()).toEqual({
      kind: 'ROW',
      fields: {
        count: { kind: 'NUMBER' },
        tag: { kind: 'STRING' },
        big: { kind: 'BIGINT' },
        raw: { kind: 'BYTES' },
        seen: { kind: 'MAP', key: { kind: 'STRING' }, value: { kind: 'NUMBER' } },
        inner: { kind: 'ROW', fields: { x: { kind: 'NUMBER' }, y: { kind: 'NUMBER' } } },
      },
      defaults: { tag: 'none', big: '12345678901234567890', raw: 'AQL/', seen: [['a', 1]], inner: { x: 3, y: 4 } },
    });
    expect(JSON.parse(JSON.stringify(row.describe()))).toEqual(row.describe());
  });

  it('rejects a default its type cannot hold', () => {
    expect(invalidTypeMessage(() => Types.withDefault(Types.NUMBER, 'x' as never))).toBe("the default of Types.withDefault(NUMBER, ...) must be a finite number to fit NUMBER, got 'x'");
    expect(invalidTypeMessage(() => Types.withDefault(Types.NUMBER, Number.NaN))).toBe('the default of Types.withDefault(NUMBER, ...) must be a finite number to fit NUMBER, got NaN');
    expect(invalidTypeMessage(() => Types.withDefault(Types.LIST(Types.STRING), ['a', 2 as never]))).toBe(
      "the default of Types.withDefault(LIST<STRING>, ...), element 1 must be a string to fit STRING, got 2",
    );
    expect(invalidTypeMessage(() => Types.withDefault(Types.GENERIC<unknown>(), new Date(0)))).toBe(
      'the default of Types.withDefault(GENERIC, ...) must be a JSON value to fit GENERIC, got a Date object',
    );
  });

  it('describes an Avro type by its schema, given as an object or as JSON text', () => {
    const schema = { type: 'record', name: 'Count', namespace: 'demo', fields: [{ name: 'n', type: 'long', default: 0 }] };
    const fromObject = Types.AVRO(schema);
    const fromText = Types.AVRO(JSON.stringify(schema));
    expect(fromObject.name).toBe('AVRO<demo.Count>');
    expect(fromObject.describe()).toEqual({ kind: 'AVRO', schema });
    expect(fromText.describe()).toEqual(fromObject.describe());
    expect(Types.AVRO('string').name).toBe('AVRO<string>');
    expect(Types.AVRO({ type: 'array', items: 'int' }).name).toBe('AVRO<array>');
    expect(Types.AVRO(['null', 'string']).name).toBe('AVRO<union>');
    expect(invalidTypeMessage(() => Types.AVRO({ type: 'record', name: 'Bad', fields: [{ name: 'n', type: 'nope' }] }))).toBe(
      'Types.AVRO got a schema that avsc rejects: undefined type name: nope',
    );
  });

  it('describes a custom type by its name and version', () => {
    const point = Types.CUSTOM<{ x: number }>({ name: 'Point', version: 2, migrate: (v) => v as { x: number } });
    expect(point.name).toBe('CUSTOM<Point, version 2>');
    expect(JSON.stringify(point.describe())).toBe('{"kind":"CUSTOM","name":"Point","version":2}');
    expect(invalidTypeMessage(() => Types.CUSTOM({ name: 'Point', version: 0 }))).toBe("Types.CUSTOM 'Point' needs a version that is an integer >= 1, got 0");
    expect(invalidTypeMessage(() => Types.CUSTOM({ name: ' ', version: 1 }))).toBe(
      "Types.CUSTOM needs a non-empty name, as in Types.CUSTOM({ name: 'Point', version: 1 }), got  ",
    );
    expect(invalidTypeMessage(() => Types.CUSTOM({ name: 'Point', version: 1, migrate: 'x' as never }))).toBe(
      "Types.CUSTOM 'Point': migrate must be a function (value, fromVersion) => value, got string",
    );
  });
});
