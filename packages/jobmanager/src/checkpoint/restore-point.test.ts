import { describe, expect, it } from 'vitest';
import type { CheckpointMetadata } from '@weir/common';
import { recordingLogger } from '@weir/common/testing';
import { jobGraph, vertex } from '../testing/fixtures.ts';
import { MemoryStorage } from '@weir/storage/testing';
import { encodeCheckpointMetadata as encodeMetadata } from '@weir/common';
import { JobCheckpointStorage } from './checkpoint-storage.ts';
import { CompletedCheckpointStore } from './completed-checkpoint-store.ts';
import { loadRestoreOutcome, type InitialRestore } from './restore-point.ts';
import { assignedState } from './state-assignment/assign-state.ts';

const graph = jobGraph(vertex('sum', 2));

/** Checkpoint n: subtask 0 a private heap file, subtask 1 a LevelDB DB with a shared table file. */
function metadata(checkpointId: number): CheckpointMetadata {
  return {
    version: 1,
    kind: 'checkpoint',
    jobId: 'job-1',
    jobName: 'test job',
    checkpointId,
    timestamp: checkpointId,
    operators: [
      {
        operatorId: 'op-sum',
        uid: undefined,
        name: 'V-sum',
        parallelism: 2,
        maxParallelism: 128,
        subtasks: [
          { keyed: [{ backend: 'heap', keyGroupRange: { start: 0, end: 63 }, offsets: [0], handle: { kind: 'file', path: 'sum-0', size: 4 }, states: {} }] },
          {
            keyed: [
              {
                backend: 'level',
                keyGroupRange: { start: 64, end: 127 },
                files: [
                  { name: 'CURRENT', location: 'private', path: 'sum-1/CURRENT', size: 4 },
                  { name: '000007.ldb', location: 'shared', path: `shared/sum-1-${checkpointId}.ldb`, size: 4 },
                ],
                states: {},
              },
            ],
          },
        ],
      },
    ],
  };
}

async function setup(checkpointIds: number[]) {
  const { logger, warnings } = recordingLogger();
  const root = new MemoryStorage('memory://cp');
  const storage = new JobCheckpointStorage(root, 'job-1', logger);
  const store = new CompletedCheckpointStore(checkpointIds.length);
  for (const id of checkpointIds) {
    const m = metadata(id);
    for (const path of ['sum-0', 'sum-1/CURRENT', '_metadata']) await root.write(`job-1/chk-${id}/${path}`, path === '_metadata' ? encodeMetadata(m) : Buffer.from('data'));
    await root.write(`job-1/shared/sum-1-${id}.ldb`, Buffer.from('data'));
    store.add({ checkpointId: id, timestamp: id, metadata: m, externalPath: storage.checkpointUrl(id) });
  }
  const corrupt = new Map<number, string>();
  const load = (initial?: InitialRestore) => loadRestoreOutcome({ jobId: 'job-1', jobGraph: graph, store, storage, logger, initial, corrupt });
  return { root, warnings, load, corrupt };
}

describe('loadRestoreOutcome', () => {
  it('restores the latest checkpoint whose files are all there, with each subtask its own state', async () => {
    const s = await setup([1, 2]);
    const outcome = await s.load();
    expect(outcome.kind === 'checkpoint' && outcome.point.checkpointPath).toBe('memory://cp/job-1/chk-2');
    if (outcome.kind !== 'checkpoint') return;
    expect(assignedState(outcome.point.assignment, 'sum', 1)).toEqual({ operators: { 'op-sum': metadata(2).operators[0]!.subtasks[1] } });
    expect(s.warnings).toEqual([]);
  });

  it('falls back to the previous retained checkpoint, with a warning naming the file, when a shared file is missing', async () => {
    const s = await setup([1, 2]);
    await s.root.delete('job-1/shared/sum-1-2.ldb');
    const outcome = await s.load();
    expect(outcome.kind === 'checkpoint' && outcome.point.checkpointId).toBe(1);
    expect(s.warnings).toEqual([
      'checkpoint 2 cannot be restored: shared file shared/sum-1-2.ldb (state of "V-sum" (ID op-sum, no uid) subtask 1) is missing; trying the previous retained checkpoint',
      'restoring checkpoint 1, older than the latest completed one (2): what sinks committed after it is written again',
    ]);
  });

  it('fails with NO_USABLE_CHECKPOINT naming the missing file and checkpoint when no retained checkpoint is whole', async () => {
    const s = await setup([3]);
    await s.root.delete('job-1/chk-3/sum-0');
    const outcome = await s.load();
    expect(outcome.kind).toBe('fatal');
    if (outcome.kind !== 'fatal') return;
    expect(outcome.cause.code).toBe('NO_USABLE_CHECKPOINT');
    expect(outcome.cause.message).toBe(
      'none of the 1 retained checkpoints in memory://cp/job-1 can be restored (checkpoint 3: file sum-0 (state of "V-sum" (ID op-sum, no uid) subtask 0) is missing); the job fails rather than restart without its state',
    );
  });

  it('skips a checkpoint a task found corrupt for the previous one, and fails with NO_USABLE_CHECKPOINT when none is left', async () => {
    const s = await setup([1, 2]);
    s.corrupt.set(2, 'file shared/sum-1-2.ldb has other content than was written');
    const outcome = await s.load();
    expect(outcome.kind === 'checkpoint' && outcome.point.checkpointId).toBe(1);
    expect(s.warnings).toEqual([
      'checkpoint 2 cannot be restored: a task found its state corrupt (file shared/sum-1-2.ldb has other content than was written); trying the previous retained checkpoint',
      'restoring checkpoint 1, older than the latest completed one (2): what sinks committed after it is written again',
    ]);
    s.corrupt.set(1, 'file sum-0 has other content than was written');
    const none = await s.load();
    expect(none.kind === 'fatal' && none.cause.message).toBe(
      'none of the 2 retained checkpoints in memory://cp/job-1 can be restored (checkpoint 2 is corrupt (file shared/sum-1-2.ldb has other content than was written); checkpoint 1 is corrupt (file sum-0 has other content than was written)); the job fails rather than restart without its state',
    );
  });

  it('starts from the savepoint the job was submitted with until a checkpoint completes', async () => {
    const s = await setup([]);
    expect(await s.load()).toEqual({ kind: 'fresh' });
    const initial: InitialRestore = {
      point: { checkpointId: 40, metadata: metadata(40), checkpointPath: 'file:///sp/savepoint-1', assignment: { tasks: new Map(), skipped: [] } },
      allowNonRestoredState: false,
    };
    expect(await s.load(initial)).toEqual({ kind: 'checkpoint', point: initial.point });
    const later = await setup([41]);
    const outcome = await later.load(initial);
    expect(outcome.kind === 'checkpoint' && outcome.point.checkpointId).toBe(41);
  });
});
