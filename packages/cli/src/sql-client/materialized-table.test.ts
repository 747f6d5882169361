import { describe, expect, it } from 'vitest';
import { MaterializedTable } from './materialized-table.ts';

describe('MaterializedTable', () => {
  it('applies a GROUP BY changelog: an update replaces its row in place, a delete removes it', () => {
    const table = new MaterializedTable();
    table.apply({ kind: '+I', fields: ['a', '1'] });
    table.apply({ kind: '+I', fields: ['b', '1'] });
    table.apply({ kind: '-U', fields: ['a', '1'] });
    table.apply({ kind: '+U', fields: ['a', '2'] });
    expect(table.rows).toEqual([['a', '2'], ['b', '1']]);
    table.apply({ kind: '-D', fields: ['b', '1'] });
    expect(table.rows).toEqual([['a', '2']]);
    expect(table.changes).toBe(5);
  });

  it('retracts the latest of equal rows and ignores a retraction of a row it does not hold', () => {
    const table = new MaterializedTable();
    table.apply({ kind: '+I', fields: ['x'] });
    table.apply({ kind: '+I', fields: ['y'] });
    table.apply({ kind: '+I', fields: ['x'] });
    table.apply({ kind: '-D', fields: ['x'] });
    table.apply({ kind: '-D', fields: ['z'] });
    expect(table.rows).toEqual([['x'], ['y']]);
    table.apply({ kind: '-U', fields: ['z'] });
    table.apply({ kind: '+U', fields: ['w'] });
    expect(table.rows).toEqual([['x'], ['y'], ['w']]);
  });

  it('keeps at most maxRows rows, dropping the oldest', () => {
    const table = new MaterializedTable(2);
    for (const v of ['1', '2', '3']) table.apply({ kind: '+I', fields: [v] });
    expect(table.rows).toEqual([['2'], ['3']]);
  });
});
