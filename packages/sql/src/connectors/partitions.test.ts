import { describe, expect, it } from 'vitest';
import { parseType } from '../validate/types.ts';
import { escapePathName, partitionSplitter } from './partitions.ts';

describe('partition paths', () => {
  it("escapes a value as Flink's PartitionPathUtils.escapePathName", () => {
    expect(escapePathName('12:05')).toBe('12%3A05');
    expect(escapePathName('a/b=c%d e')).toBe('a%2Fb%3Dc%25d e');
    expect(escapePathName('2026-01-01')).toBe('2026-01-01');
    expect(escapePathName('\u0001x')).toBe('%01x');
  });

  it('splits a row into its Hive-style path (keys in PARTITIONED BY order) and the other columns', () => {
    const fields = ['a', 'dt', 'b', 'hm'].map((name) => ({ name, type: parseType(name === 'a' ? 'BIGINT' : 'STRING', { line: 1, column: 1 }) }));
    const { dataFields, split } = partitionSplitter(fields, ['dt', 'hm'], '__DEFAULT_PARTITION__');
    expect(dataFields.map((f) => f.name)).toEqual(['a', 'b']);
    expect(split([1, '2026-01-01', 'x', '12:05'])).toEqual({ path: 'dt=2026-01-01/hm=12%3A05', data: [1, 'x'] });
    expect(split([2, null, 'y', '']).path).toBe('dt=__DEFAULT_PARTITION__/hm=__DEFAULT_PARTITION__');
  });
});
