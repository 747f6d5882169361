import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { jobIdFrom, listCheckpoints, ProcessCluster, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';
import { disposeSavepoint, prefixViolation, rejection, triggerSavepoint, UNCHECKPOINTED } from './savepoint-rpc-helpers.ts';

const RECORDS = 200_000;
const RATE = 2_000;

describe('savepoints over the JobService', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(): Promise<{ cluster: ProcessCluster; dir: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'weir-sp-rpc-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
    cleanups.push(() => cluster.stop());
    return { cluster, dir };
  }

  async function run(cluster: ProcessCluster, job: string, args: readonly string[] = []): Promise<string> {
    const result = await cluster.weir(['run', '--detached', writeJobFile(job), '--', ...args]);
    expect(result.code, result.stderr).toBe(0);
    const jobId = jobIdFrom(result.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    return jobId;
  }

  it('writes a savepoint of a running job that keeps running, and answers bad requests with clear errors, deleting nothing', async () => {
    const { cluster, dir } = await start();
    const jobId = await run(cluster, RUNNING_SUMS, [join(dir, 'out'), String(RECORDS), String(RATE), '500', 'EXACTLY_ONCE']);
    await waitForCheckpoints(cluster.client, jobId, (cps) => cps.some((c) => c.status === 'COMPLETED'));
    const target = join(dir, 'savepoints');

    const savepoint = await triggerSavepoint(cluster.client, { jobId, targetDirectory: target });
    const path = fileURLToPath(savepoint.savepointPath);
    expect(path).toMatch(new RegExp(`^${target}/savepoint-${jobId.slice(0, 6)}-[0-9a-f]{12}$`));
    const metadata = JSON.parse(readFileSync(join(path, '_metadata'), 'utf8'));
    expect(metadata).toMatchObject({ version: 1, kind: 'savepoint', jobId, checkpointId: Number(savepoint.checkpointId) });
    expect(metadata.operators.map((op: { uid?: string }) => op.uid)).toEqual(expect.arrayContaining(['events', 'sums', 'sink']));
    const history = await listCheckpoints(cluster.client, jobId);
    expect(history.checkpoints.find((c) => Number(c.checkpointId) === Number(savepoint.checkpointId))).toMatchObject({
      kind: 'SAVEPOINT',
      status: 'COMPLETED',
      externalPath: savepoint.savepointPath,
    });

    // A directory below a regular file can never be created.
    const file = join(dir, 'a-file');
    writeFileSync(file, 'keep me');
    const unwritable = await rejection(triggerSavepoint(cluster.client, { jobId, targetDirectory: join(file, 'sp') }));
    expect(unwritable.code).toBe('SAVEPOINT_DIR_NOT_WRITABLE');
    expect(unwritable.message).toContain(`cannot write the savepoint directory ${join(file, 'sp')}/savepoint-${jobId.slice(0, 6)}-`);
    expect(readFileSync(file, 'utf8')).toBe('keep me');

    const noDir = await rejection(triggerSavepoint(cluster.client, { jobId }));
    expect(noDir.code).toBe('SAVEPOINT_DIR_MISSING');
    expect(noDir.message).toContain('state.savepoints.dir');

    const both = await Promise.allSettled([
      triggerSavepoint(cluster.client, { jobId, targetDirectory: target }),
      triggerSavepoint(cluster.client, { jobId, targetDirectory: target }),
    ]);
    const refused = both.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as { code: string });
    expect(refused.map((e) => e.code)).toEqual(['SAVEPOINT_IN_PROGRESS']);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);

    const notASavepoint = await rejection(disposeSavepoint(cluster.client, { savepointPath: dir }));
    expect(notASavepoint.code).toBe('NOT_A_SAVEPOINT');
    expect(notASavepoint.message).toBe(`${dir} is not a savepoint: it holds no _metadata file (a savepoint directory has one); nothing was deleted`);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(join(path, '_metadata'))).toBe(true);

    const plainJob = await run(cluster, UNCHECKPOINTED);
    const unsupported = await rejection(triggerSavepoint(cluster.client, { jobId: plainJob, targetDirectory: target }));
    expect(unsupported.code).toBe('SAVEPOINT_NOT_SUPPORTED');
    expect(unsupported.message).toContain('enable checkpointing (env.enableCheckpointing or execution.checkpointing.interval) to take savepoints');


    await disposeSavepoint(cluster.client, { savepointPath: savepoint.savepointPath });
    expect(existsSync(path)).toBe(false);
    expect((await waitForStatus(cluster.client, jobId, ['RUNNING'])).summary!.status).toBe('RUNNING');
  }, 60_000);

  it('stops a job with a savepoint: it FINISHES with its output committed exactly up to the savepoint', async () => {
    const { cluster, dir } = await start();
    const output = join(dir, 'out');
    const jobId = await run(cluster, RUNNING_SUMS, [output, String(RECORDS), String(RATE), '500', 'EXACTLY_ONCE']);
    await waitForCheckpoints(cluster.client, jobId, (cps) => cps.filter((c) => c.status === 'COMPLETED').length >= 2);

    const savepoint = await triggerSavepoint(cluster.client, { jobId, targetDirectory: join(dir, 'savepoints'), terminate: 'STOP' });
    const metadata = JSON.parse(readFileSync(join(fileURLToPath(savepoint.savepointPath), '_metadata'), 'utf8'));
    expect(metadata).toMatchObject({ kind: 'savepoint', checkpointId: Number(savepoint.checkpointId) });
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 30_000);
    expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');

    const committed = readCommittedLines(output);
    expect(committed.length).toBeGreaterThan(0);
    expect(committed.length).toBeLessThan(RECORDS);
    expect(new Set(committed).size).toBe(committed.length);
    expect(prefixViolation(committed, expectedRunningSums(RECORDS))).toBeUndefined();

    const late = await rejection(triggerSavepoint(cluster.client, { jobId, targetDirectory: join(dir, 'savepoints') }));
    expect(late.code).toBe('JOB_NOT_RUNNING');
    expect(late.message).toBe(`job ${jobId} is FINISHED; a savepoint can only be taken of a RUNNING job`);
  }, 60_000);
});
