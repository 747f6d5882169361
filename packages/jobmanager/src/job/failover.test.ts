import { describe, expect, it } from 'vitest';
import { JobStatus, TaskState, WeirError, jsonSyntaxProblem } from '@weir/common';
import type { DeployTask } from '@weir/rpc';
import { SLOT_TIMEOUT, statuses } from '../testing/cluster.ts';
import { checkpointingCluster, settle, taskState } from '../testing/checkpointing-cluster.ts';

const TWO_TMS = { 'tm-1': 2, 'tm-2': 2 };
const RESTART = { kind: 'fixed-delay', attempts: 3, delayMs: 500 } as const;

function deploys(c: ReturnType<typeof checkpointingCluster>): DeployTask[] {
  return c.gateway.sent.filter((m) => m.message.deploy).map((m) => m.message.deploy!);
}

/** A running job with checkpoints 1 and 2 completed (num-retained 2) and 3 pending, at t = 4 000. */
async function withTwoCheckpoints(job: Parameters<typeof checkpointingCluster>[1] = {}) {
  const c = checkpointingCluster(TWO_TMS, { restartStrategy: RESTART, ...job, checkpointing: { numRetained: 2, ...job.checkpointing } });
  c.reportAll(TaskState.RUNNING);
  const seen = statuses(c, 'job-1');
  for (const id of [1, 2]) {
    c.clock.advance(1_000);
    await c.ackAll(id);
    await settle();
  }
  c.clock.advance(1_000);
  c.gateway.clear();
  return { ...c, seen };
}

/** Fails map#1, lets the others cancel and the restart delay pass, and lets the restore load. */
async function failAndRestart(c: Awaited<ReturnType<typeof withTwoCheckpoints>>) {
  c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom', attempt: c.master.attempt });
  c.reportAll(TaskState.CANCELED);
  c.clock.advance(RESTART.delayMs);
  await settle();
}

describe('failover', () => {
  it('restarts from the latest checkpoint: every task gets its own state and the checkpoint path, and IDs go on', async () => {
    const c = await withTwoCheckpoints();
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom' });
    expect(c.master.status).toBe(JobStatus.FAILING);
    c.reportAll(TaskState.CANCELED);
    expect(c.master.status).toBe(JobStatus.RESTARTING);
    c.clock.advance(RESTART.delayMs - 1);
    await settle();
    expect(deploys(c)).toEqual([]);
    c.clock.advance(1);
    await settle();
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    expect(c.master.attempt).toBe(1);
    // A restored attempt's first checkpoint is triggered as soon as it runs, not an interval later: it commits what the restore replayed.
    c.clock.advance(0);
    expect(c.triggers()).toEqual(['4 src#0@tm-1', '4 src#1@tm-2']);
    expect(c.seen).toEqual([JobStatus.FAILING, JobStatus.RESTARTING, JobStatus.RUNNING]);
    const deployed = deploys(c);
    expect(deployed.map((d) => `${d.task!.vertexId}#${d.task!.subtaskIndex}:${d.task!.attempt}`)).toEqual([
      'src#0:1', 'src#1:1', 'map#0:1', 'map#1:1', 'map#2:1', 'sink#0:1',
    ]);
    for (const d of deployed) {
      const task = `${d.task!.vertexId}#${d.task!.subtaskIndex}`;
      expect(d.restore!.checkpointId).toBe(2);
      expect(d.restore!.checkpointPath).toBe('memory://cp/job-1/chk-2');
      expect(JSON.parse(Buffer.from(d.restore!.state as Uint8Array).toString())).toEqual(taskState(task));
      expect(d.checkpointing).toEqual({ mode: 'EXACTLY_ONCE', backend: 'filesystem', checkpointDir: 'memory://cp/job-1', maxInlineBytes: 0, asyncSnapshots: true, incremental: false, changelogEnabled: false, changelogMaterializeIntervalMs: 0, unaligned: false, alignedCheckpointTimeoutMs: 0 });
    }
    expect(c.master.checkpoints()).toMatchObject({ completed: 2, failed: 1, restoredFrom: 2 });
    expect(c.master.checkpoints().checkpoints.find((cp) => cp.checkpointId === 3)).toMatchObject({ failureReason: 'CHECKPOINT_TASK_FAILURE: the job failed over while checkpoint 3 was pending' });
    await c.ackAll(4);
    await settle();
    // Then every interval again.
    c.clock.advance(999);
    expect(c.triggers()).toHaveLength(2);
    c.clock.advance(1);
    expect(c.triggers().slice(2)).toEqual(['5 src#0@tm-1', '5 src#1@tm-2']);
  });

  it("sweeps what a task wrote into an aborted checkpoint's directory after it was deleted, keeping the retained checkpoints", async () => {
    const c = await withTwoCheckpoints();
    // Checkpoint 3 is pending; the first task writes its state into chk-3.
    await c.writeState(3, 'src#0');
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom' });
    await settle();
    // The failover aborted checkpoint 3 and deleted its directory; a surviving task's upload ends after that.
    await c.writeState(3, 'src#1');
    await c.writeState(3, 'map#0');
    expect(await c.storage.list('job-1/chk-3')).toHaveLength(2);
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    expect(c.master.attempt).toBe(1);
    const left = await c.storage.list('job-1');
    expect([...new Set(left.map((f) => f.split('/')[1]))]).toEqual(['chk-1', 'chk-2']);
  });

  it('starts the new attempt empty when no checkpoint was completed', async () => {
    const c = checkpointingCluster(TWO_TMS, { restartStrategy: RESTART });
    c.reportAll(TaskState.RUNNING);
    c.gateway.clear();
    c.report('job-1', 'tm-1', 'src#0', TaskState.FAILED, { cause: 'boom' });
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    expect(deploys(c).map((d) => [d.task!.attempt, d.restore, d.checkpointing?.mode])).toEqual(Array(6).fill([1, undefined, 'EXACTLY_ONCE']));
    expect(c.master.checkpoints().restoredFrom).toBe(0);
  });

  it('falls back to the previous checkpoint with a warning when the latest _metadata is corrupt', async () => {
    const c = await withTwoCheckpoints();
    await c.storage.write('job-1/chk-2/_metadata', Buffer.from('{"truncated":'));
    await failAndRestart(c);
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    expect(deploys(c).map((d) => d.restore!.checkpointPath)).toEqual(Array(6).fill('memory://cp/job-1/chk-1'));
    expect(c.master.checkpoints().restoredFrom).toBe(1);
    expect(c.warnings.filter((w) => w.includes('cannot be restored'))).toEqual([
      `checkpoint 2 cannot be restored: memory://cp/job-1/chk-2/_metadata is corrupt (it is not JSON (${jsonError('{"truncated":')})); trying the previous retained checkpoint`,
    ]);
  });

  it('restores the previous retained checkpoint when a task finds the restored one corrupt, and fails when none is left', async () => {
    const c = await withTwoCheckpoints();
    await failAndRestart(c);
    expect(deploys(c).map((d) => d.restore!.checkpointId)).toEqual(Array(6).fill(2));
    c.gateway.clear();
    const corrupt = (id: number) => `map (2/3) failed: cannot restore keyed state from checkpoint ${id}: its shared file shared/x.ldb has other content than was written`;
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: corrupt(2), code: 'CHECKPOINT_CORRUPT', attempt: 1 });
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    expect(deploys(c).map((d) => d.restore!.checkpointId)).toEqual(Array(6).fill(1));
    c.gateway.clear();
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: corrupt(1), code: 'CHECKPOINT_CORRUPT', attempt: 2 });
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    expect(c.master.status).toBe(JobStatus.FAILED);
    expect(c.master.failureCause).toMatch(/^none of the 2 retained checkpoints in memory:\/\/cp\/job-1 can be restored \(checkpoint 2 is corrupt \(V-map \(2\/3\) failed on TaskManager tm-2: map \(2\/3\) failed: cannot restore keyed state from checkpoint 2: .*\); checkpoint 1 is corrupt/);
    expect(deploys(c)).toEqual([]);
  });

  it('fails, naming the directory, when checkpoints were completed but none can be restored', async () => {
    const c = await withTwoCheckpoints();
    await c.storage.write('job-1/chk-2/_metadata', Buffer.from('garbage'));
    await c.storage.delete('job-1/chk-1/_metadata');
    await failAndRestart(c);
    expect(c.master.status).toBe(JobStatus.FAILED);
    expect(deploys(c)).toEqual([]);
    expect(c.master.failureCause).toBe(
      `none of the 2 retained checkpoints in memory://cp/job-1 can be restored (memory://cp/job-1/chk-2/_metadata is corrupt: it is not JSON (${jsonError('garbage')}); memory://cp/job-1/chk-1/_metadata is missing); the job fails rather than restart without its state`,
    );
  });

  it('counts a checkpoint storage that cannot be read as a failed attempt and restores once it can', async () => {
    const c = await withTwoCheckpoints();
    c.storage.fail('read', 'job-1/', new WeirError('STORAGE_FAILURE', 'S3 unreachable after 5 attempts'));
    await failAndRestart(c);
    expect(c.master.status).toBe(JobStatus.RESTARTING);
    expect(c.master.attempt).toBe(1);
    c.storage.heal();
    c.clock.advance(RESTART.delayMs);
    await settle();
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    expect(c.master.attempt).toBe(2);
    expect(deploys(c).map((d) => `${d.task!.attempt} ${d.restore!.checkpointId}`)).toEqual(Array(6).fill('2 2'));
  });

  it('fails once the restart strategy gives up, saying so', async () => {
    const c = await withTwoCheckpoints({ restartStrategy: { kind: 'fixed-delay', attempts: 1, delayMs: 500 } });
    await failAndRestart(c);
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    c.reportAll(TaskState.RUNNING);
    await failAndRestart(c);
    expect(c.master.status).toBe(JobStatus.FAILED);
    expect(c.master.failureCause).toBe('restart strategy fixed-delay gave up after 1 restarts: V-map (2/3) failed on TaskManager tm-2: boom');
  });

  it('waits for a lost TaskManager to be replaced, then deploys on the new one', async () => {
    const c = await withTwoCheckpoints();
    c.loseTaskManager('tm-2', 'connection closed');
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    expect(c.master.status).toBe(JobStatus.RESTARTING);
    expect(deploys(c)).toEqual([]);
    c.addTaskManager('tm-3', 2);
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    expect(c.gateway.deployed()).toEqual(['src#0@tm-1', 'src#1@tm-3', 'map#0@tm-1', 'map#1@tm-3', 'map#2@tm-1', 'sink#0@tm-1']);
    expect(deploys(c).every((d) => d.restore!.checkpointId === 2)).toBe(true);
  });

  it('fails with NOT_ENOUGH_SLOTS when no replacement comes within the slot request timeout', async () => {
    const c = await withTwoCheckpoints();
    c.loseTaskManager('tm-2', 'heartbeat timeout');
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    c.clock.advance(SLOT_TIMEOUT);
    expect(c.master.status).toBe(JobStatus.FAILED);
    expect(c.master.failureCause).toBe('not enough task slots: the job needs 3 slots (its highest parallelism) and the cluster has 2 free of 2 (1 TaskManagers)');
  });

  it('cancels a restarting job at once', async () => {
    const c = await withTwoCheckpoints();
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom' });
    c.reportAll(TaskState.CANCELED);
    expect(c.dispatcher.cancel('job-1')).toBe(JobStatus.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    expect(deploys(c)).toEqual([]);
  });

  it('restores the memory backend from the _metadata kept in the JobManager', async () => {
    const c = await withTwoCheckpoints({ storage: false });
    await failAndRestart(c);
    c.reportAll(TaskState.RUNNING);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    const deployed = deploys(c);
    expect(deployed.map((d) => [d.restore!.checkpointId, d.restore!.checkpointPath, d.checkpointing!.backend, d.checkpointing!.checkpointDir])).toEqual(
      Array(6).fill([2, '', 'memory', '']),
    );
    expect(JSON.parse(Buffer.from(deployed[3]!.restore!.state as Uint8Array).toString())).toEqual(taskState('map#1'));
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return jsonSyntaxProblem(err);
  }
  throw new Error(`${text} is valid JSON`);
}
