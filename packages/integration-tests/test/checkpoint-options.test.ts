import { afterEach, describe, expect, it } from 'vitest';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3rver } from '@weir/storage/testing';
import { completedCount, jobIdFrom, listCheckpoints, ProcessCluster, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';

/** chk-<n> directories of a job that hold a `_metadata`: the complete checkpoints on disk. */
function completeCheckpointDirs(checkpointsDir: string, jobId: string): number[] {
  const jobDir = join(checkpointsDir, jobId);
  if (!existsSync(jobDir)) return [];
  return readdirSync(jobDir)
    .filter((d) => /^chk-\d+$/.test(d) && existsSync(join(jobDir, d, '_metadata')))
    .map((d) => Number(d.slice(4)))
    .sort((a, b) => a - b);
}

/**
 * The complete checkpoints once the JobManager has stopped completing them. TaskManagers frozen
 * with SIGSTOP may already have sent every acknowledgement of a checkpoint, which the JobManager
 * then completes (writing its `_metadata`) after they stopped: wait until two listings a second
 * apart agree.
 */
async function settledCheckpointDirs(checkpointsDir: string, jobId: string): Promise<number[]> {
  let before = completeCheckpointDirs(checkpointsDir, jobId);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = completeCheckpointDirs(checkpointsDir, jobId);
    if (now.join() === before.join()) return now;
    before = now;
  }
}

describe('checkpoint options and faults on a process cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function cluster(config: Record<string, string | number>): Promise<ProcessCluster> {
    const c = await ProcessCluster.start({ taskManagers: 2, slots: 2, config });
    cleanups.push(() => c.stop());
    return c;
  }

  it('keeps num-retained checkpoints, retains them on finish with RETAIN_ON_CANCELLATION, and shows the history', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-retained-'));
    const checkpoints = join(dir, 'checkpoints');
    const c = await cluster({ 'state.checkpoints.dir': checkpoints, 'state.checkpoints.num-retained': 2 });
    const run = await c.weir(['run', writeJobFile(RUNNING_SUMS), '--', join(dir, 'out'), '8000', '2000', '300', 'EXACTLY_ONCE']);
    expect(run.code, run.stderr + c.logs()).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    expect(readCommittedLines(join(dir, 'out')).sort()).toEqual(expectedRunningSums(8000));

    const history = await listCheckpoints(c.client, jobId);
    const completed = history.checkpoints.filter((cp) => cp.status === 'COMPLETED');
    expect(completed.length).toBeGreaterThanOrEqual(3);
    const ids = history.checkpoints.map((cp) => Number(cp.checkpointId));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(completeCheckpointDirs(checkpoints, jobId)).toEqual(completed.slice(0, 2).map((cp) => Number(cp.checkpointId)).reverse());

    const table = await c.weir(['checkpoints', jobId]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('COMPLETED');
    expect(table.stdout).toContain(String(completed[0]!.checkpointId));
  });

  it.each([
    ['RETAIN_ON_CANCELLATION', true],
    ['DELETE_ON_CANCELLATION', false],
  ] as const)('on cancel with %s keeps checkpoints: %s', async (cleanup, kept) => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-cancel-'));
    const checkpoints = join(dir, 'checkpoints');
    const c = await cluster({ 'state.checkpoints.dir': checkpoints });
    const run = await c.weir(['run', '--detached', writeJobFile(RUNNING_SUMS), '--', join(dir, 'out'), '1000000', '1000', '200', 'EXACTLY_ONCE', '', cleanup]);
    const jobId = jobIdFrom(run.stdout);
    await waitForCheckpoints(c.client, jobId, (cps) => completedCount(cps) >= 2);
    await c.weir(['cancel', jobId]);
    await waitForStatus(c.client, jobId, ['CANCELED']);
    await new Promise((r) => setTimeout(r, 500));
    expect(completeCheckpointDirs(checkpoints, jobId).length > 0).toBe(kept);
  });

  it('declines checkpoints into a directory that cannot be written, naming it, and keeps the job running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-unwritable-'));
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a directory');
    const c = await cluster({ 'state.checkpoints.dir': join(blocker, 'checkpoints'), 'execution.checkpointing.tolerable-failed-checkpoints': 1000 });
    const run = await c.weir(['run', '--detached', writeJobFile(RUNNING_SUMS), '--', join(dir, 'out'), '1000000', '1000', '200', 'EXACTLY_ONCE']);
    const jobId = jobIdFrom(run.stdout);
    const history = await waitForCheckpoints(c.client, jobId, (cps) => cps.filter((cp) => cp.status === 'FAILED').length >= 2);
    const failed = history.find((cp) => cp.status === 'FAILED')!;
    expect(failed.failureReason).toContain('CHECKPOINT_STORAGE_FAILURE');
    expect(failed.failureReason).toContain('a-file');
    // `weir checkpoints` names the declining task once, right before the task's own reason.
    const table = await c.weir(['checkpoints', jobId]);
    expect(table.code, table.stderr).toBe(0);
    const failedRows = table.stdout.split('\n').filter((line) => / FAILED /.test(line));
    expect(failedRows.length, table.stdout).toBeGreaterThanOrEqual(2);
    for (const row of failedRows) {
      expect(row.match(/declined checkpoint/g), row).toHaveLength(1);
      expect(row).toMatch(/CHECKPOINT_STORAGE_FAILURE: \S.* \([12]\/2\) declined checkpoint \d+: writing /);
    }
    const details = await waitForStatus(c.client, jobId, ['RUNNING']);
    expect(details.attempt).toBe(0);
    await c.weir(['cancel', jobId]);
  });

  it('fails over while S3 is down past the tolerable failures and recovers exactly-once when it is back', async () => {
    const s3 = await startS3rver();
    cleanups.push(() => s3.stop());
    const dir = mkdtempSync(join(tmpdir(), 'weir-s3down-'));
    const c = await cluster({
      's3.endpoint': s3.endpoint,
      's3.access-key': s3.settings.accessKey!,
      's3.secret-key': s3.settings.secretKey!,
      // The job names its own checkpoint directory on S3: the JobManager allows only directories it is told.
      'state.savepoints.allowed-dirs': `${tmpdir()},s3://${s3.bucket}`,
      'execution.checkpointing.tolerable-failed-checkpoints': 2,
    });
    const records = 25_000;
    const run = await c.weir(['run', '--detached', writeJobFile(RUNNING_SUMS), '--', join(dir, 'out'), String(records), '2000', '300', 'EXACTLY_ONCE', `s3://${s3.bucket}/checkpoints`]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    const phases: string[] = [];
    const started = Date.now();
    const phase = (what: string) => phases.push(`${Date.now() - started} ms: ${what}`);
    try {
      await waitForCheckpoints(c.client, jobId, (cps) => completedCount(cps) >= 2, 30_000);
      phase('2 checkpoints completed; stopping S3');
      await s3.stop();
      await waitForCheckpoints(c.client, jobId, (cps) => cps.some((cp) => cp.status === 'FAILED' && cp.failureReason.includes('CHECKPOINT_STORAGE_FAILURE')), 30_000);
      phase('a checkpoint failed with CHECKPOINT_STORAGE_FAILURE');
      await new Promise((r) => setTimeout(r, 4_000));
      await s3.restart();
      phase('S3 is back');
      const details = await waitForStatus(c.client, jobId, ['FINISHED', 'FAILED'], 90_000);
      phase(`job ${details.summary!.status}`);
      expect(details.summary!.status, details.failureCause).toBe('FINISHED');
      expect(details.attempt).toBeGreaterThanOrEqual(1);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${phases.join('\n')}\n${c.logs()}`);
    }
    expect(readCommittedLines(join(dir, 'out')).sort()).toEqual(expectedRunningSums(records));
  });

  it('restores from the previous checkpoint when the latest _metadata is corrupt, and fails clearly when none is usable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-corrupt-'));
    const checkpoints = join(dir, 'checkpoints');
    const c = await cluster({ 'state.checkpoints.dir': checkpoints, 'state.checkpoints.num-retained': 2, 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': 3 });
    const run = await c.weir(['run', '--detached', writeJobFile(RUNNING_SUMS), '--', join(dir, 'out'), '1000000', '1000', '300', 'EXACTLY_ONCE']);
    const jobId = jobIdFrom(run.stdout);
    await waitForCheckpoints(c.client, jobId, (cps) => completedCount(cps) >= 3);

    // Freeze the TaskManagers so no checkpoint completes between corrupting and killing.
    for (const tm of c.liveTaskManagers) tm.kill('SIGSTOP');
    const retained = await settledCheckpointDirs(checkpoints, jobId);
    expect(retained).toHaveLength(2);
    const [older, latest] = retained as [number, number];
    writeFileSync(join(checkpoints, jobId, `chk-${latest}`, '_metadata'), '{"truncated":');
    await c.killTaskManager(c.liveTaskManagers[0]);
    for (const tm of c.liveTaskManagers) tm.kill('SIGCONT');
    await c.startTaskManager();

    await waitForStatus(c.client, jobId, ['RUNNING'], 60_000);
    const history = await listCheckpoints(c.client, jobId);
    expect(Number(history.restoredFrom), c.jobManager.output.slice(-3000)).toBe(older);
    expect(c.jobManager.output).toContain(`chk-${latest}`);

    // Now spoil every retained checkpoint: the next restore has nothing usable.
    await waitForCheckpoints(c.client, jobId, (cps) => completedCount(cps) >= 6);
    for (const tm of c.liveTaskManagers) tm.kill('SIGSTOP');
    for (const id of await settledCheckpointDirs(checkpoints, jobId)) writeFileSync(join(checkpoints, jobId, `chk-${id}`, '_metadata'), 'garbage');
    await c.killTaskManager(c.liveTaskManagers[0]);
    for (const tm of c.liveTaskManagers) tm.kill('SIGCONT');
    const failed = await waitForStatus(c.client, jobId, ['FAILED'], 60_000);
    expect(failed.failureCause).toContain(join(checkpoints, jobId));
  });
});
