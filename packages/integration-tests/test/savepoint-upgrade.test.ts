import { afterEach, describe, expect, it } from 'vitest';
import { readCommittedLines } from '@weir/examples';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, getJob, jobIdFrom, localPath, ProcessCluster, savepointPathFrom, waitForCheckpoints, waitForStatus, writeJobFile, type RunResult } from '../src/index.ts';
import { cutOf, expectedUpgradeOutput, UPGRADE_V1, UPGRADE_V2 } from './savepoint-jobs.ts';

const RECORDS = 24_000;
/** v1 would need 16 s for all records, far longer than it runs before the stop, even on a loaded machine. */
const V1_RATE = 1_500;
/** v2 only has to finish the rest; the rate does not change the output. */
const V2_RATE = 4_000;
const V1_INTERVAL_MS = 300;
const V2_INTERVAL_MS = 1_000;

/** The checkpoint ID line every savepoint-taking command prints after the path. */
function checkpointIdFrom(result: RunResult): number {
  const match = /^Checkpoint ID: (\d+)\./m.exec(result.stdout);
  if (!match) throw new Error(`no checkpoint ID in output:\n${result.stdout}`);
  return Number(match[1]);
}


function expectSavepointIn(dir: string, jobId: string, savepointPath: string): void {
  const path = localPath(savepointPath);
  expect(path.startsWith(`${dir}/savepoint-${jobId.slice(0, 6)}-`), path).toBe(true);
  expect(existsSync(join(path, '_metadata')), `${path}/_metadata`).toBe(true);
}

describe('savepoints and upgrades on a process cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function cluster(dir: string): Promise<ProcessCluster> {
    // No state.savepoints.dir: every savepoint here names its directory, or must fail for want of one.
    const config = { 'state.checkpoints.dir': join(dir, 'checkpoints') };
    const c = await ProcessCluster.start({ taskManagers: 2, slots: 2, config });
    cleanups.push(() => c.stop());
    return c;
  }

  // Object reuse alternates over the cases (a job's 'reuse' argument turns it on), so both modes
  // are covered without running a case twice: with slot sharing, subtask i of the source and of
  // the keyed operator share a slot, so the keyBy channel i -> i is local and goes as objects under reuse.
  it('upgrades a running job through stop with a savepoint: new operator, evolved state, parallelism 2 -> 3, exactly-once output (object reuse off in v1, on in v2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-upgrade-'));
    const output = join(dir, 'out');
    const savepoints = join(dir, 'savepoints');
    const c = await cluster(dir);
    const args = (rate: number, intervalMs: number, reuse: 'copy' | 'reuse') => ['--', output, String(RECORDS), String(rate), String(intervalMs), reuse];

    const v1 = await c.weir(['run', '--detached', writeJobFile(UPGRADE_V1), ...args(V1_RATE, V1_INTERVAL_MS, 'copy')]);
    expect(v1.code, v1.stderr).toBe(0);
    const v1Id = jobIdFrom(v1.stdout);
    await waitForStatus(c.client, v1Id, ['RUNNING']);
    await waitForCheckpoints(c.client, v1Id, (cps) => completedCount(cps) >= 2, 30_000);

    const stop = await c.weir(['stop', '--savepointPath', savepoints, v1Id]);
    expect(stop.code, `${stop.stdout}\n${stop.stderr}\n${c.logs()}`).toBe(0);
    expect(stop.stderr).toContain(`Suspending job ${v1Id} with a savepoint…`);
    expect(stop.stdout).toContain(`Job ${v1Id} has finished.`);
    const savepoint = savepointPathFrom(stop);
    expectSavepointIn(savepoints, v1Id, savepoint);
    expect((await getJob(c.client, v1Id)).summary!.status).toBe('FINISHED');

    const history = await c.weir(['checkpoints', v1Id]);
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout).toMatch(new RegExp(`^${checkpointIdFrom(stop)}\\s+SAVEPOINT\\s+COMPLETED\\s`, 'm'));

    // What v1 committed is everything before the savepoint: a prefix of each reader's records.
    const cut = cutOf(readCommittedLines(output));
    expect(cut.a, 'reader 0 emitted nothing before the stop').toBeGreaterThan(0);
    expect(cut.b, 'reader 1 emitted nothing before the stop').toBeGreaterThan(0);
    expect(cut.a + cut.b, 'v1 ran to the end before the stop: nothing was left to upgrade').toBeLessThan(RECORDS);

    const v2 = await c.weir(['run', '-s', savepoint, writeJobFile(UPGRADE_V2), ...args(V2_RATE, V2_INTERVAL_MS, 'reuse')], { timeoutMs: 60_000 });
    expect(v2.code, `${v2.stdout}\n${v2.stderr}\n${c.logs()}`).toBe(0);
    const v2Details = await getJob(c.client, jobIdFrom(v2.stdout));
    const sums = v2Details.vertices.find((vertex) => vertex.operators.some((operator) => operator.uid === 'sums'))!;
    expect(sums.parallelism).toBe(3);
    expect(sums.operators.map((operator) => operator.uid)).toEqual(['sums', 'tag']);

    expect(readCommittedLines(output).sort()).toEqual(expectedUpgradeOutput(RECORDS, cut));
  });

  it('savepoints a running job and disposes it, cancels with a savepoint, and refuses what is no savepoint with the cluster still up (object reuse on)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-savepoints-'));
    const savepoints = join(dir, 'savepoints');
    const c = await cluster(dir);
    const run = await c.weir(['run', '--detached', writeJobFile(UPGRADE_V1), '--', join(dir, 'out'), '1000000', '1000', String(V1_INTERVAL_MS), 'reuse']);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    await waitForCheckpoints(c.client, jobId, (cps) => completedCount(cps) >= 1, 30_000);

    const noDir = await c.weir(['savepoint', jobId]);
    expect(noDir.code, noDir.stdout).toBe(1);
    expect(noDir.stderr).toMatch(/^error: .*state\.savepoints\.dir/m);

    const taken = await c.weir(['savepoint', jobId, savepoints]);
    expect(taken.code, `${taken.stderr}\n${c.logs()}`).toBe(0);
    const savepoint = savepointPathFrom(taken);
    expectSavepointIn(savepoints, jobId, savepoint);
    expect((await getJob(c.client, jobId)).summary!.status).toBe('RUNNING');

    const disposed = await c.weir(['savepoint', '-d', savepoint]);
    expect(disposed.code, disposed.stderr).toBe(0);
    expect(disposed.stdout).toContain(`Savepoint '${savepoint}' disposed.`);
    expect(existsSync(localPath(savepoint))).toBe(false);

    const notASavepoint = join(dir, 'not-a-savepoint');
    mkdirSync(notASavepoint);
    writeFileSync(join(notASavepoint, '_metadata'), 'these are not the bytes of checkpoint metadata');
    const missing = join(dir, 'missing');
    const [fromMissing, fromNotASavepoint] = await Promise.all([
      c.weir(['run', '--detached', '-s', missing, writeJobFile(UPGRADE_V1), '--', join(dir, 'out2'), '10', '10', '100']),
      c.weir(['run', '--detached', '-s', notASavepoint, writeJobFile(UPGRADE_V1), '--', join(dir, 'out3'), '10', '10', '100']),
    ]);
    for (const [result, path] of [[fromMissing, missing], [fromNotASavepoint, notASavepoint]] as const) {
      expect(result.code, result.stdout).toBe(1);
      expect(result.stderr).toMatch(/^error: /m);
      expect(result.stderr).toContain(path);
      expect(result.stdout).not.toContain('Job has been submitted');
    }
    // The refused submissions left the cluster as it was: the JobManager answers, the job runs on.
    expect((await getJob(c.client, jobId)).summary!.status).toBe('RUNNING');

    const cancel = await c.weir(['cancel', '-s', savepoints, jobId]);
    expect(cancel.code, `${cancel.stderr}\n${c.logs()}`).toBe(0);
    expect(cancel.stdout).toContain(`Cancelled job ${jobId}.`);
    expectSavepointIn(savepoints, jobId, savepointPathFrom(cancel));
    expect((await getJob(c.client, jobId)).summary!.status).toBe('CANCELED');
  });
});
