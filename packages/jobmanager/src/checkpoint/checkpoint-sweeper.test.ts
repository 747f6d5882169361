import { describe, expect, it } from 'vitest';
import type { CheckpointMetadata } from '@weir/common';
import { recordingLogger } from '@weir/common/testing';
import { MemoryStorage } from '@weir/storage/testing';
import { CheckpointFiles } from './checkpoint-files.ts';
import { JobCheckpointStorage } from './checkpoint-storage.ts';
import { CheckpointSweeper } from './checkpoint-sweeper.ts';
import type { CompletedCheckpoint } from './completed-checkpoint-store.ts';

/** A retained checkpoint whose one LevelDB handle refers to `shared`. */
function retained(checkpointId: number, ...shared: string[]): CompletedCheckpoint {
  const metadata: CheckpointMetadata = {
    version: 1,
    kind: 'checkpoint',
    jobId: 'job-1',
    jobName: 'j',
    checkpointId,
    timestamp: 0,
    operators: [
      {
        operatorId: 'op-sum',
        uid: 'sum',
        name: 'Sum',
        parallelism: 1,
        maxParallelism: 128,
        subtasks: [{ keyed: [{ backend: 'level', keyGroupRange: { start: 0, end: 127 }, files: shared.map((path) => ({ name: path, location: 'shared' as const, path, size: 10 })), states: {} }] }],
      },
    ],
  };
  return { checkpointId, timestamp: 0, metadata, externalPath: '' };
}

function setUp(files: Record<string, number>, job: { retained: CompletedCheckpoint[]; nothingInFlight: boolean }) {
  const root = new MemoryStorage('memory://root');
  for (const [path, bytes] of Object.entries(files)) root.files.set(`job-1/${path}`, new Uint8Array(bytes));
  const { logger } = recordingLogger();
  const storage = new JobCheckpointStorage(root, 'job-1', logger);
  const ids = new Set(job.retained.map((c) => c.checkpointId));
  const sweeper = new CheckpointSweeper(
    new CheckpointFiles(storage),
    { inUse: (id) => ids.has(id), retained: () => job.retained, nothingInFlight: () => job.nothingInFlight },
    () => 1_234,
    logger,
  );
  return { root, sweeper };
}

describe('CheckpointSweeper counts what is left behind', () => {
  it('counts the files of checkpoint directories no checkpoint uses and the shared files no retained checkpoint refers to', async () => {
    const { sweeper } = setUp(
      { 'chk-3/_metadata': 5, 'chk-3/op-a': 100, 'chk-4/op-b': 40, 'chk-4/op-c': 2, 'chk-9/op-d': 7, 'shared/a': 1_000, 'shared/b': 300 },
      { retained: [retained(3, 'shared/a')], nothingInFlight: true },
    );
    expect(sweeper.leftBehind).toBeUndefined();
    await sweeper.count(5);
    // chk-4 (aborted) and shared/b; chk-9 is above the last checkpoint ID, so not this coordinator's to judge.
    expect(sweeper.leftBehind).toEqual({ files: 3, bytes: 342, countedAtMs: 1_234 });
  });

  it('leaves shared files out while a checkpoint is in flight: its uploads are named by no acknowledgement yet', async () => {
    const { sweeper } = setUp({ 'chk-3/_metadata': 5, 'shared/a': 1_000, 'shared/new': 300 }, { retained: [retained(3, 'shared/a')], nothingInFlight: false });
    await sweeper.count(4);
    expect(sweeper.leftBehind).toEqual({ files: 0, bytes: 0, countedAtMs: 1_234 });
  });

  it('counts nothing once the sweep deleted the aborted directories, and nothing after the storage is released', async () => {
    const { root, sweeper } = setUp({ 'chk-3/_metadata': 5, 'chk-4/op-b': 40 }, { retained: [retained(3)], nothingInFlight: true });
    await sweeper.sweep(4);
    await sweeper.count(4);
    expect(sweeper.leftBehind).toEqual({ files: 0, bytes: 0, countedAtMs: 1_234 });
    expect([...root.files.keys()]).toEqual(['job-1/chk-3/_metadata']);
    root.files.set('job-1/chk-4/late', new Uint8Array(9));
    sweeper.release();
    await sweeper.count(4);
    expect(sweeper.leftBehind?.files).toBe(0);
  });
});
