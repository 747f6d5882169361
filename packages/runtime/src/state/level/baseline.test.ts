import type { LevelStateFile } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { baselineSegments, baselineTable, MAX_SEGMENTS, restoredBaseline, type LevelBaseline } from './baseline.ts';

const table: LevelStateFile = { name: '000012.ldb', location: 'shared', path: 'shared/op-0-a-000012.ldb', size: 4096 };
const segment = (offset: number, size: number): LevelStateFile => ({ name: '000009.log', location: 'shared', path: `shared/op-0-${offset}-000009.log`, size, offset });
const baseline: LevelBaseline = new Map([
  [table.name, [table]],
  ['000009.log', [segment(0, 100), segment(100, 20)]],
]);

describe('the baseline of incremental LevelDB checkpoints', () => {
  it('refers to a table it uploaded only while the DB has that file at that size', () => {
    expect(baselineTable(baseline, '000012.ldb', 4096)).toBe(table);
    expect(baselineTable(baseline, '000012.ldb', 4000)).toBeUndefined();
    expect(baselineTable(baseline, '000013.ldb', 4096)).toBeUndefined();
    expect(baselineTable(undefined, '000012.ldb', 4096)).toBeUndefined();
    // A log's segment is never a table.
    expect(baselineTable(new Map([['000009.log', [segment(0, 100)]]]), '000009.log', 100)).toBeUndefined();
  });

  it("gives a grown log's segments and the bytes they hold; none for a file it has no segments of, or one shorter than them", () => {
    expect(baselineSegments(baseline, '000009.log', 150)).toEqual({ segments: [segment(0, 100), segment(100, 20)], covered: 120 });
    expect(baselineSegments(baseline, '000009.log', 120)).toEqual({ segments: [segment(0, 100), segment(100, 20)], covered: 120 });
    expect(baselineSegments(baseline, '000009.log', 119)).toEqual({ segments: [], covered: 0 });
    expect(baselineSegments(baseline, 'MANIFEST-000005', 300)).toEqual({ segments: [], covered: 0 });
    expect(baselineSegments(baseline, '000012.ldb', 8000)).toEqual({ segments: [], covered: 0 });
    expect(baselineSegments(undefined, '000009.log', 150)).toEqual({ segments: [], covered: 0 });
  });

  it('has a file cut into MAX_SEGMENTS segments uploaded whole again', () => {
    const many = Array.from({ length: MAX_SEGMENTS }, (_, i) => segment(i * 10, 10));
    expect(baselineSegments(new Map([['000009.log', many.slice(0, MAX_SEGMENTS - 1)]]), '000009.log', MAX_SEGMENTS * 10)).toMatchObject({ covered: (MAX_SEGMENTS - 1) * 10 });
    expect(baselineSegments(new Map([['000009.log', many]]), '000009.log', MAX_SEGMENTS * 10 + 5)).toEqual({ segments: [], covered: 0 });
  });

  it("takes a restored checkpoint's shared tables, not its segments (the opened DB starts a new log and MANIFEST) nor its private files", () => {
    const current: LevelStateFile = { name: 'CURRENT', location: 'private', path: 'op-0-level/CURRENT', size: 16 };
    expect(restoredBaseline([current, segment(0, 100), segment(100, 20), table])).toEqual(new Map([[table.name, [table]]]));
  });
});
