import { describe, expect, it } from 'vitest';
import { TaskState, type CheckpointMetadata, type LevelKeyedStateHandle, type OperatorSubtaskState } from '@weir/common';
import { checkpointingCluster, settle } from '../testing/checkpointing-cluster.ts';
import { SharedStateRegistry } from './shared-state-registry.ts';

function level(...shared: string[]): LevelKeyedStateHandle {
  return {
    backend: 'level',
    keyGroupRange: { start: 0, end: 127 },
    files: [{ name: 'CURRENT', location: 'private', path: 'db/CURRENT', size: 16 }, ...shared.map((path) => ({ name: path.split('/').pop()!, location: 'shared' as const, path, size: 100 }))],
    states: {},
  };
}

function metadata(checkpointId: number, ...subtasks: OperatorSubtaskState[]): CheckpointMetadata {
  return {
    version: 1,
    kind: 'checkpoint',
    jobId: 'job-1',
    jobName: 'j',
    checkpointId,
    timestamp: 0,
    operators: [{ operatorId: 'op-sum', uid: 'sum', name: 'Sum', parallelism: subtasks.length, maxParallelism: 128, subtasks }],
  };
}

type Cluster = ReturnType<typeof checkpointingCluster>;

/** A cluster with incremental LevelDB checkpoints, two retained, every task running. */
function levelCluster(): Cluster {
  const c = checkpointingCluster({ 'tm-1': 2, 'tm-2': 2 }, { checkpointing: { numRetained: 2, backend: 'level', incremental: true } });
  c.reportAll(TaskState.RUNNING);
  return c;
}

/** `subtasks` acknowledge checkpoint `checkpointId`; map#0 with LevelDB state referring to the shared `paths`, which are written first. */
async function ackWithShared(c: Cluster, checkpointId: number, paths: string[], subtasks = c.master.subtasks()): Promise<void> {
  for (const path of paths) await c.storage.write(`job-1/${path}`, Buffer.from(path));
  for (const s of subtasks) {
    const state = s.vertexId === 'map' && s.index === 0 ? { operators: { 'op-map': { keyed: [level(...paths)] } } } : { operators: {} };
    c.dispatcher.acknowledgeCheckpoint(s.taskManagerId, {
      task: { jobId: 'job-1', attempt: c.master.attempt, vertexId: s.vertexId, subtaskIndex: s.index },
      checkpointId,
      state: Buffer.from(JSON.stringify(state)),
      metrics: { syncMs: 1, asyncMs: 1, alignmentMs: 0, stateBytes: 1, unaligned: false, persistedBytes: 0 },
    });
  }
  await settle();
  await settle();
}

describe('SharedStateRegistry', () => {
  it('releases a shared file only when the last checkpoint using it is released', () => {
    const registry = new SharedStateRegistry();
    registry.register(1, metadata(1, { keyed: [level('shared/a.ldb', 'shared/b.ldb')] }, { keyed: [level('shared/x.ldb')] }));
    registry.register(2, metadata(2, { keyed: [level('shared/a.ldb', 'shared/c.ldb')] }, { keyed: [level('shared/x.ldb')] }));
    registry.register(2, metadata(2, { keyed: [level('shared/ignored.ldb')] }));
    expect(registry.references()).toEqual(new Map([['shared/a.ldb', 2], ['shared/b.ldb', 1], ['shared/x.ldb', 2], ['shared/c.ldb', 1]]));
    expect(registry.release(1)).toEqual(['shared/b.ldb']);
    expect(registry.release(1)).toEqual([]);
    registry.register(3, metadata(3, { keyed: [level('shared/c.ldb', 'shared/d.ldb')] }));
    expect(registry.release(2).sort()).toEqual(['shared/a.ldb', 'shared/x.ldb']);
    expect(registry.unregistered([{ keyed: [level('shared/d.ldb', 'shared/new.ldb')] }, null])).toEqual(['shared/new.ldb']);
    registry.rebuild([{ checkpointId: 3, metadata: metadata(3, { keyed: [level('shared/d.ldb')] }) }]);
    expect(registry.references()).toEqual(new Map([['shared/d.ldb', 1]]));
  });

  it('deletes the shared files of subsumed checkpoints that no retained checkpoint uses, on the coordinator', async () => {
    const c = levelCluster();
    const sharedOf: Record<number, string[]> = { 1: ['shared/1.ldb', 'shared/2.ldb'], 2: ['shared/2.ldb', 'shared/3.ldb'], 3: ['shared/3.ldb'], 4: ['shared/4.ldb'] };
    const complete = async (checkpointId: number) => {
      c.clock.advance(1_000);
      await ackWithShared(c, checkpointId, sharedOf[checkpointId]!);
    };
    const shared = () => c.storage.paths().filter((p) => p.includes('/shared/'));
    await complete(1);
    await complete(2);
    expect(shared()).toEqual(['job-1/shared/1.ldb', 'job-1/shared/2.ldb', 'job-1/shared/3.ldb']);
    await complete(3);
    expect(shared()).toEqual(['job-1/shared/2.ldb', 'job-1/shared/3.ldb']);
    await complete(4);
    expect(shared()).toEqual(['job-1/shared/3.ldb', 'job-1/shared/4.ldb']);
    expect(c.storage.paths().filter((p) => p.endsWith('_metadata'))).toEqual(['job-1/chk-3/_metadata', 'job-1/chk-4/_metadata']);
  });

  it('deletes the shared files that only a failed checkpoint uploaded, keeping those a retained checkpoint uses', async () => {
    const c = levelCluster();
    c.clock.advance(1_000);
    await ackWithShared(c, 1, ['shared/kept.ldb']);
    c.clock.advance(1_000);
    // Only map#0 answers checkpoint 2, which then expires.
    await ackWithShared(c, 2, ['shared/kept.ldb', 'shared/only-2.ldb'], c.master.subtasks().filter((s) => s.vertexId === 'map' && s.index === 0));
    c.clock.advance(10_000);
    await settle();
    await settle();
    expect(c.master.checkpoints().checkpoints.find((cp) => cp.checkpointId === 2)?.status).toBe('FAILED');
    expect(c.storage.paths().filter((p) => p.includes('/shared/'))).toEqual(['job-1/shared/kept.ldb']);
  });
});
