import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { Types } from './types.ts';

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

  it('rejects a ROW without fields and a field that is not a type', () => {
    for (const bad of [() => Types.ROW({}), () => Types.ROW({ word: 'STRING' as never }), () => Types.LIST(undefined as never)]) {
      try {
        bad();
        expect.unreachable();
      } catch (err) {
        expect(isWeirError(err, 'INVALID_TYPE')).toBe(true);
      }
    }
  });
});
