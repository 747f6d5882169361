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

/** An incremental handle built on checkpoint `base`'s uploads. */
function levelOn(base: number, ...shared: string[]): LevelKeyedStateHandle {
  return { ...level(...shared), baseCheckpointId: base };
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

/**
 * `subtasks` acknowledge checkpoint `checkpointId`; map#0 with LevelDB state referring to the
 * shared `paths`, which are written first, built on checkpoint `base` (by default the one
 * before, as when completions reach the task before the next barrier).
 */
async function ackWithShared(c: Cluster, checkpointId: number, paths: string[], subtasks = c.master.subtasks(), base = checkpointId - 1): Promise<void> {
  for (const path of paths) if (!(await c.storage.exists(`job-1/${path}`))) await c.storage.write(`job-1/${path}`, Buffer.from(path));
  for (const s of subtasks) {
    const state = s.vertexId === 'map' && s.index === 0 ? { operators: { 'op-map': { keyed: [levelOn(base, ...paths)] } } } : { operators: {} };
    c.dispatcher.acknowledgeCheckpoint(s.taskManagerId, {
      task: { jobId: 'job-1', attempt: c.master.attempt, vertexId: s.vertexId, subtaskIndex: s.index },
      checkpointId,
      state: Buffer.from(JSON.stringify(state)),
      metrics: { syncMs: 1, asyncMs: 1, alignmentMs: 0, stateBytes: 1, checkpointedBytes: 1, unaligned: false, persistedBytes: 0 },
    });
  }
  await settle();
  await settle();
}

describe('SharedStateRegistry', () => {
  it('releases a shared file when the last checkpoint using it is released, and deletes it once every task builds on a newer one', () => {
    const registry = new SharedStateRegistry();
    registry.register(1, metadata(1, { keyed: [level('shared/a.ldb', 'shared/b.ldb')] }, { keyed: [level('shared/x.ldb')] }));
    registry.register(2, metadata(2, { keyed: [level('shared/a.ldb', 'shared/c.ldb')] }, { keyed: [level('shared/x.ldb')] }));
    registry.register(2, metadata(2, { keyed: [level('shared/ignored.ldb')] }));
    expect(registry.references()).toEqual(new Map([['shared/a.ldb', 2], ['shared/b.ldb', 1], ['shared/x.ldb', 2], ['shared/c.ldb', 1]]));
    registry.release(1);
    registry.release(1);
    expect(registry.released()).toEqual(['shared/b.ldb']);
    // A task still building on checkpoint 1 may name b.ldb: it stays.
    expect(registry.collect([{ keyed: [levelOn(2, 'shared/c.ldb')] }, { keyed: [levelOn(1, 'shared/b.ldb')] }])).toEqual([]);
    expect(registry.collect([{ keyed: [levelOn(2, 'shared/c.ldb')] }, { keyed: [level()] }, null])).toEqual(['shared/b.ldb']);
    registry.register(3, metadata(3, { keyed: [level('shared/c.ldb', 'shared/d.ldb')] }));
    registry.release(2);
    expect(registry.released().sort()).toEqual(['shared/a.ldb', 'shared/x.ldb']);
    // A handle that names no base (written before bases were recorded) builds on anything.
    expect(registry.collect([{ keyed: [level('shared/d.ldb')] }])).toEqual([]);
    expect(registry.unregistered([{ keyed: [level('shared/d.ldb', 'shared/a.ldb', 'shared/new.ldb')] }, null])).toEqual(['shared/new.ldb']);
    expect(registry.rebuild([{ checkpointId: 3, metadata: metadata(3, { keyed: [level('shared/d.ldb')] }) }]).sort()).toEqual(['shared/a.ldb', 'shared/x.ldb']);
    expect(registry.references()).toEqual(new Map([['shared/d.ldb', 1]]));
    expect(registry.released()).toEqual([]);
  });

  it('counts the changelog segments of changelog checkpoints as shared files of theirs', () => {
    const registry = new SharedStateRegistry();
    const segment = (path: string) => ({ name: 'changelog-1', location: 'shared' as const, path, size: 10 });
    registry.register(1, metadata(1, { keyed: [{ ...levelOn(0, 'shared/base.ldb'), changelog: [segment('shared/s1')] }] }));
    registry.register(2, metadata(2, { keyed: [{ ...levelOn(1, 'shared/base.ldb'), changelog: [segment('shared/s2')] }] }));
    expect(registry.references()).toEqual(new Map([['shared/base.ldb', 2], ['shared/s1', 1], ['shared/s2', 1]]));
    registry.release(1);
    expect(registry.collect([{ keyed: [levelOn(2)] }])).toEqual(['shared/s1']);
    expect(registry.unregistered([{ keyed: [{ ...levelOn(2, 'shared/base.ldb'), changelog: [segment('shared/s2'), segment('shared/s3')] }] }])).toEqual(['shared/s3']);
  });

  it('registers a released file again when a completed checkpoint refers to it', () => {
    const registry = new SharedStateRegistry();
    registry.register(1, metadata(1, { keyed: [level('shared/f.ldb')] }));
    registry.register(2, metadata(2, { keyed: [level('shared/f2.ldb')] }));
    registry.release(1);
    expect(registry.released()).toEqual(['shared/f.ldb']);
    registry.register(3, metadata(3, { keyed: [levelOn(1, 'shared/f.ldb')] }));
    expect(registry.released()).toEqual([]);
    registry.release(2);
    registry.release(3);
    // f.ldb was last used by checkpoint 3: a task on checkpoint 3 may still name it.
    expect(registry.collect([{ keyed: [levelOn(3, 'shared/g.ldb')] }])).toEqual(['shared/f2.ldb']);
    expect(registry.collect([{ keyed: [levelOn(4, 'shared/g.ldb')] }])).toEqual(['shared/f.ldb']);
    expect(registry.abandonReleased()).toEqual([]);
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

  it('keeps the files of a subsumed checkpoint that a task builds on while the completion that subsumed it is on its way', async () => {
    const c = checkpointingCluster({ 'tm-1': 2, 'tm-2': 2 }, { checkpointing: { numRetained: 1, backend: 'level', incremental: true } });
    c.reportAll(TaskState.RUNNING);
    const shared = () => c.storage.paths().filter((p) => p.includes('/shared/'));
    c.clock.advance(1_000);
    await ackWithShared(c, 1, ['shared/f.ldb'], undefined, 0);
    // Checkpoint 2's barrier came before the news of 1: the task uploaded the table again.
    c.clock.advance(1_000);
    await ackWithShared(c, 2, ['shared/f-again.ldb'], undefined, 0);
    expect(shared()).toEqual(['job-1/shared/f-again.ldb', 'job-1/shared/f.ldb']);
    // Checkpoint 3's barrier came after the news of 1 but before the news of 2.
    c.clock.advance(1_000);
    await ackWithShared(c, 3, ['shared/f.ldb', 'shared/g.ldb'], undefined, 1);
    expect(shared()).toEqual(['job-1/shared/f-again.ldb', 'job-1/shared/f.ldb', 'job-1/shared/g.ldb']);
    c.clock.advance(1_000);
    // Every task builds on 3 now: f-again.ldb (last used by 2) goes, f.ldb (used by 3) stays.
    await ackWithShared(c, 4, ['shared/g.ldb'], undefined, 3);
    expect(shared()).toEqual(['job-1/shared/f.ldb', 'job-1/shared/g.ldb']);
    c.clock.advance(1_000);
    await ackWithShared(c, 5, ['shared/g.ldb'], undefined, 4);
    expect(shared()).toEqual(['job-1/shared/g.ldb']);
    expect(c.master.checkpoints().checkpoints.filter((cp) => cp.status === 'COMPLETED').map((cp) => cp.checkpointId).sort()).toEqual([1, 2, 3, 4, 5]);
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
