import type { LevelStateFile } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { segmentName, StateChangelog, type ChangelogCheckpoint, type MaterializedBase } from './state-changelog.ts';

function write(changelog: StateChangelog, key: string): void {
  changelog.writer.put(Buffer.from(key), Buffer.from('v'));
}

/** What the asynchronous part does: uploads the segments without an upload, and reports them. */
function upload(checkpoint: ChangelogCheckpoint, id: number): LevelStateFile[] {
  const uploads = new Map<number, LevelStateFile>();
  const all = checkpoint.segments.map((s) => {
    if (s.upload !== undefined) return s.upload;
    const file: LevelStateFile = { name: segmentName(s.sequence), location: 'shared', path: `shared/${id}-${s.sequence}`, size: s.bytes!.byteLength };
    uploads.set(s.sequence, file);
    return file;
  });
  checkpoint.uploaded(uploads);
  return all;
}

function base(upTo: number, name: string): MaterializedBase {
  const file: LevelStateFile = { name: '000005.ldb', location: 'shared', path: `shared/${name}`, size: 10 };
  return { files: [file], upTo, baseline: new Map([[file.name, [file]]]), uploadedBytes: 1000 };
}

describe('StateChangelog', () => {
  it('uploads a segment again until a confirmed checkpoint uploaded it, then refers to that upload', () => {
    const changelog = new StateChangelog();
    write(changelog, 'a');
    const first = changelog.checkpoint(1)!;
    expect(upload(first, 1).map((f) => f.path)).toEqual(['shared/1-1']);
    write(changelog, 'b');
    // Checkpoint 1 may still fail, and its upload go with it.
    const second = changelog.checkpoint(2)!;
    expect(upload(second, 2).map((f) => f.path)).toEqual(['shared/2-1', 'shared/2-2']);
    changelog.confirm(2);
    write(changelog, 'c');
    const third = changelog.checkpoint(3)!;
    expect(third.baseCheckpointId).toBe(2);
    expect(upload(third, 3).map((f) => f.path)).toEqual(['shared/2-1', 'shared/2-2', 'shared/3-3']);
    expect(changelog.heldBytes).toBe(third.segments[2]!.bytes!.byteLength);
  });

  it('offers a materialization to one checkpoint, makes it the base once that one is confirmed, and releases the segments it holds', () => {
    const changelog = new StateChangelog();
    write(changelog, 'a');
    changelog.confirm(upload(changelog.checkpoint(1)!, 1).length);
    write(changelog, 'b');
    const upTo = changelog.closeSegment();
    expect(changelog.canMaterialize).toBe(true);
    changelog.materialized(base(upTo, 'm1'));
    expect(changelog.canMaterialize).toBe(false);
    write(changelog, 'c');
    const offered = changelog.checkpoint(2)!;
    expect(offered.base.map((f) => f.path)).toEqual(['shared/m1']);
    // The first checkpoint on a base counts what materializing it uploaded.
    expect(offered.materializedBytes).toBe(1000);
    expect(offered.segments.map((s) => s.sequence)).toEqual([3]);
    // Another checkpoint meanwhile stays on the confirmed (empty) base: checkpoint 2 may fail and take the materialization's files along.
    const meanwhile = changelog.checkpoint(3)!;
    expect(meanwhile.base).toEqual([]);
    expect(meanwhile.materializedBytes).toBe(0);
    expect(meanwhile.segments.map((s) => s.sequence)).toEqual([1, 2, 3]);
    upload(offered, 2);
    changelog.confirm(2);
    expect(changelog.baseline.get('000005.ldb')![0]!.path).toBe('shared/m1');
    write(changelog, 'd');
    const after = changelog.checkpoint(4)!;
    expect(after.base.map((f) => f.path)).toEqual(['shared/m1']);
    expect(after.materializedBytes).toBe(0);
    expect(after.segments.map((s) => [s.sequence, s.upload?.path])).toEqual([
      [3, 'shared/2-3'],
      [4, undefined],
    ]);
    expect(changelog.canMaterialize).toBe(true);
  });

  it('drops a materialization whose checkpoint was aborted, and goes on from the older base and its segments', () => {
    const changelog = new StateChangelog();
    write(changelog, 'a');
    changelog.materialized(base(changelog.closeSegment(), 'm1'));
    changelog.checkpoint(1);
    changelog.abort(1);
    expect(changelog.canMaterialize).toBe(true);
    const next = changelog.checkpoint(2)!;
    expect(next.base).toEqual([]);
    expect(next.segments.map((s) => s.sequence)).toEqual([1]);
  });

  it('names no checkpoint without a base until a materialization of the restored DB is confirmed', () => {
    const changelog = new StateChangelog();
    changelog.lostBase(new Map());
    write(changelog, 'a');
    expect(changelog.checkpoint(1)).toBeUndefined();
    changelog.materialized(base(changelog.closeSegment(), 'm1'));
    write(changelog, 'b');
    const offered = changelog.checkpoint(2)!;
    expect(offered.segments.map((s) => s.sequence)).toEqual([2]);
    // Aborted: no base again.
    changelog.abort(2);
    expect(changelog.checkpoint(3)).toBeUndefined();
    changelog.materialized(base(changelog.closeSegment(), 'm2'));
    upload(changelog.checkpoint(4)!, 4);
    changelog.confirm(4);
    expect(changelog.checkpoint(5)!.base.map((f) => f.path)).toEqual(['shared/m2']);
  });

  it('goes on from a restored checkpoint: its segments are uploaded, and new ones numbered after them', () => {
    const changelog = new StateChangelog();
    const segments: LevelStateFile[] = [7, 8].map((n) => ({ name: segmentName(n), location: 'shared', path: `shared/old-${n}`, size: 4 }));
    changelog.restored(base(0, 'restored').files, new Map(), segments);
    write(changelog, 'a');
    const next = changelog.checkpoint(1)!;
    expect(next.baseCheckpointId).toBe(0);
    expect(next.base.map((f) => f.path)).toEqual(['shared/restored']);
    expect(next.segments.map((s) => [s.sequence, s.upload?.path])).toEqual([
      [7, 'shared/old-7'],
      [8, 'shared/old-8'],
      [9, undefined],
    ]);
  });
});
