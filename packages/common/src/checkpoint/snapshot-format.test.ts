import { describe, expect, it } from 'vitest';
import { decodeTaskStateSnapshot, encodeTaskStateSnapshot } from './snapshot-format.ts';
import type { LevelStateFile, TaskStateSnapshot } from './types.ts';

function withFiles(files: readonly LevelStateFile[]): TaskStateSnapshot {
  return { operators: { op: { keyed: [{ backend: 'level', keyGroupRange: { start: 0, end: 127 }, files, states: {} }] } } };
}

const decode = (files: readonly LevelStateFile[]) => decodeTaskStateSnapshot(encodeTaskStateSnapshot(withFiles(files)));

const current: LevelStateFile = { name: 'CURRENT', location: 'private', path: 'op-0-level/CURRENT', size: 16 };
const segment = (offset: number, size: number): LevelStateFile => ({ name: '000009.log', location: 'shared', path: `shared/op-0-${offset}-000009.log`, size, offset });

describe('LevelDB handles in a TaskStateSnapshot', () => {
  it('takes whole files and logs listed as segments that follow one another from byte 0', () => {
    const files = [current, segment(0, 100), segment(100, 0), segment(100, 50), { name: '000012.ldb', location: 'shared', path: 'shared/op-0-x-000012.ldb', size: 4096 } as const];
    expect(decode(files)).toEqual(withFiles(files));
  });

  it('refuses segments with a gap, an overlap or not from 0, a file listed twice, and names that are paths', () => {
    const problem = (detail: string) => `not a TaskStateSnapshot: operator op: keyed state: ${detail}`;
    expect(decode([segment(0, 100), segment(101, 5)])).toBe(problem('the segments of LevelDB file 000009.log do not follow one another from byte 0'));
    expect(decode([segment(0, 100), segment(50, 5)])).toBe(problem('the segments of LevelDB file 000009.log do not follow one another from byte 0'));
    expect(decode([segment(10, 100)])).toBe(problem('the segments of LevelDB file 000009.log do not follow one another from byte 0'));
    expect(decode([{ ...segment(0, 1), offset: undefined }, segment(1, 5)])).toBe(problem('the segments of LevelDB file 000009.log do not follow one another from byte 0'));
    expect(decode([current, current])).toBe(problem('LevelDB file CURRENT is listed more than once'));
    expect(decode([{ ...current, name: '../CURRENT' }])).toBe(problem('a LevelDB file is named "../CURRENT", not a file name of a LevelDB directory'));
    expect(decode([{ ...segment(0, 1), offset: -1 }])).toBe(problem('LevelDB file 000009.log has a segment offset that is no byte count'));
  });

  it('takes the changelog segments of a changelog checkpoint, shared and named changelog-<n>, and refuses others', () => {
    const changelog = (name: string, location: 'shared' | 'private' = 'shared'): TaskStateSnapshot => ({
      operators: { op: { keyed: [{ backend: 'level', keyGroupRange: { start: 0, end: 127 }, files: [], changelog: [{ name, location, path: `shared/op-0-u-${name}`, size: 9 }], states: {} }] } },
    });
    expect(decodeTaskStateSnapshot(encodeTaskStateSnapshot(changelog('changelog-7')))).toEqual(changelog('changelog-7'));
    const refused = 'not a TaskStateSnapshot: operator op: keyed state: a LevelDB changelog segment lacks its name (changelog-<n>), shared location, path or size';
    expect(decodeTaskStateSnapshot(encodeTaskStateSnapshot(changelog('000007.log')))).toBe(refused);
    expect(decodeTaskStateSnapshot(encodeTaskStateSnapshot(changelog('changelog-7', 'private')))).toBe(refused);
  });
});
