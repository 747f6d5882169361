import { afterEach, describe, expect, it } from 'vitest';
import { bundleJob, type JobBundle } from '@weir/cli';
import { fromServiceError } from '@weir/rpc';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, getJob, jobIdFrom, ProcessCluster, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { OTHER_SHAPE, RESCALABLE_SUMS } from './restore-jobs.ts';

const RECORDS = 12_000;
/** Records/s of the jobs that are canceled: slow enough that they cannot end before the cancel. */
const SLOW = 200;
/** Records/s of the last job, which runs to the end. */
const FAST = 4_000;
const INTERVAL_MS = 300;

/** The one retained checkpoint of a canceled job (num-retained 1): `<checkpoints>/<jobId>/chk-<n>`. */
function retainedCheckpoint(checkpoints: string, jobId: string): string {
  const dirs = readdirSync(join(checkpoints, jobId)).filter((name) => /^chk-\d+$/.test(name) && existsSync(join(checkpoints, jobId, name, '_metadata')));
  expect(dirs, `retained checkpoints of ${jobId}`).toHaveLength(1);
  return join(checkpoints, jobId, dirs[0]!);
}

/** Every file below `dir` with its size, to show nothing was deleted or changed. */
function snapshotOf(dir: string): Record<string, number> {
  const files: Record<string, number> = {};
  const walk = (sub: string) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const path = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else files[path] = statSync(join(dir, path)).size;
    }
  };
  walk('');
  return files;
}

describe('weir run -s: restoring from a savepoint or retained checkpoint', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function cluster(): Promise<ProcessCluster> {
    const c = await ProcessCluster.start({ taskManagers: 2, slots: 2 });
    cleanups.push(() => c.stop());
    return c;
  }

  /** SubmitJob over gRPC with a bundle made once: the errors of many submissions without a CLI process each. */
  function submit(c: ProcessCluster, bundle: JobBundle, args: string[], savepointPath: string): Promise<{ code: string; message: string } | 'submitted'> {
    return new Promise((resolve) => {
      c.client.submitJob({ bundle: Buffer.from(bundle.code), entryName: bundle.entryName, args, parallelism: 0, savepointPath, allowNonRestoredState: false }, (err) => {
        if (err === null) return resolve('submitted');
        const weirError = fromServiceError(err);
        resolve({ code: weirError.code, message: weirError.message });
      });
    });
  }

  /** Runs the sums at `parallelism` (from `savepoint` when given) until `checkpoints` completed, then cancels it. */
  async function runAndCancel(c: ProcessCluster, args: string[], savepoint: string | undefined, checkpoints: number): Promise<string> {
    const restore = savepoint === undefined ? [] : ['-s', savepoint];
    const run = await c.weir(['run', '--detached', ...restore, writeJobFile(RESCALABLE_SUMS), '--', ...args]);
    expect(run.code, `${run.stderr}\n${c.logs()}`).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    await waitForCheckpoints(c.client, jobId, (cps) => completedCount(cps) >= checkpoints, 30_000).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}\n${c.logs()}`);
    });
    const cancel = await c.weir(['cancel', jobId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    await waitForStatus(c.client, jobId, ['CANCELED']);
    return jobId;
  }

  it('rescales the keyed operator 2 -> 3 (from a moved copy) -> 1 and commits exactly the expected running sums', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-rescale-'));
    const checkpoints = join(dir, 'checkpoints');
    const output = join(dir, 'out');
    const c = await cluster();
    const args = (parallelism: number, rate = SLOW) => [output, String(RECORDS), String(rate), String(INTERVAL_MS), checkpoints, String(parallelism)];

    const first = await runAndCancel(c, args(2), undefined, 2);
    const moved = join(dir, 'moved', 'savepoint-copy');
    mkdirSync(join(dir, 'moved'));
    cpSync(retainedCheckpoint(checkpoints, first), moved, { recursive: true });

    const second = await runAndCancel(c, args(3), moved, 2);
    const secondDetails = await getJob(c.client, second);
    expect(secondDetails.vertices.find((v) => v.operators.some((o) => o.uid === 'sums'))!.parallelism).toBe(3);
    const fromSecond = retainedCheckpoint(checkpoints, second);
    const firstId = Number(/chk-(\d+)$/.exec(retainedCheckpoint(checkpoints, first))![1]);
    expect(Number(/chk-(\d+)$/.exec(fromSecond)![1]), 'checkpoint IDs continue above the restored one').toBeGreaterThan(firstId);

    const third = await c.weir(['run', '--detached', '-s', fromSecond, writeJobFile(RESCALABLE_SUMS), '--', ...args(1, FAST)]);
    expect(third.code, `${third.stderr}\n${c.logs()}`).toBe(0);
    const thirdId = jobIdFrom(third.stdout);
    const details = await waitForStatus(c.client, thirdId, ['FINISHED', 'FAILED', 'CANCELED'], 60_000);
    expect(details.summary!.status, `${details.failureCause}\n${c.logs()}`).toBe('FINISHED');
    expect(details.vertices.find((v) => v.operators.some((o) => o.uid === 'sums'))!.parallelism).toBe(1);

    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(RECORDS));
  });

  it('refuses bad savepoints when the job is submitted, starting nothing, deleting nothing, the cluster still up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-bad-savepoints-'));
    const checkpoints = join(dir, 'checkpoints');
    const c = await cluster();
    const args = (parallelism: number, maxParallelism?: number) => [
      join(dir, 'out'), '1000000', String(SLOW), String(INTERVAL_MS), checkpoints, String(parallelism), ...(maxParallelism === undefined ? [] : [String(maxParallelism)]),
    ];
    const jobId = await runAndCancel(c, args(2), undefined, 1);
    const good = retainedCheckpoint(checkpoints, jobId);
    const before = snapshotOf(checkpoints);

    const copy = (name: string) => {
      const path = join(dir, name);
      cpSync(good, path, { recursive: true });
      return path;
    };
    const notJson = copy('not-json');
    writeFileSync(join(notJson, '_metadata'), '{"version": 1, "operat');
    const wrongShape = copy('wrong-shape');
    writeFileSync(join(wrongShape, '_metadata'), JSON.stringify({ version: 1, kind: 'savepoint', jobId: 'x', jobName: 'x', checkpointId: 3, timestamp: 0, operators: [{ operatorId: 'a' }] }));
    const truncated = copy('truncated');
    const stateFile = Object.entries(snapshotOf(truncated)).find(([path, size]) => path !== '_metadata' && size > 1)?.[0];
    expect(stateFile, `a state file in ${truncated}`).toBeDefined();
    truncateSync(join(truncated, stateFile!), 1);
    const noMetadata = join(dir, 'no-metadata');
    mkdirSync(noMetadata);
    writeFileSync(join(noMetadata, 'op-1'), 'state');

    const [sums, other] = await Promise.all([bundleJob(writeJobFile(RESCALABLE_SUMS)), bundleJob(writeJobFile(OTHER_SHAPE))]);
    const cases: [bundle: JobBundle, args: string[], path: string, code: string, message: string][] = [
      [sums, args(2), noMetadata, 'SAVEPOINT_NOT_FOUND', `${noMetadata} is not a savepoint: it has no _metadata`],
      [sums, args(2), notJson, 'INVALID_SAVEPOINT', `${notJson} is not a savepoint: its _metadata cannot be read as checkpoint metadata (it is not JSON`],
      [sums, args(2), wrongShape, 'INVALID_SAVEPOINT', `${wrongShape} is not a savepoint: its _metadata cannot be read as checkpoint metadata (operator entry 0: it lacks operatorId or name)`],
      [sums, args(2), truncated, 'INVALID_SAVEPOINT', `savepoint ${truncated} is incomplete: file ${stateFile}`],
      [other, [], good, 'UNMAPPED_STATE', `savepoint ${good} holds state of 3 operators the job does not have: uid 'events'`],
      [sums, args(2, 64), good, 'RESTORE_MISMATCH', 'with max parallelism 128, and the job now gives it max parallelism 64'],
    ];
    const results = await Promise.all(cases.map(([bundle, jobArgs, path]) => submit(c, bundle, jobArgs, path)));
    results.forEach((result, i) => {
      const [, , path, code, message] = cases[i]!;
      expect(result, path).not.toBe('submitted');
      if (result === 'submitted') return;
      expect(result.code, result.message).toBe(code);
      expect(result.message).toContain(message);
    });
    const missing = join(dir, 'missing');
    const fromMissing = await c.weir(['run', '--detached', '-s', missing, writeJobFile(RESCALABLE_SUMS), '--', ...args(2)]);
    expect(fromMissing.code, fromMissing.stdout).toBe(1);
    expect(fromMissing.stderr).toContain(`no savepoint at ${missing}`);
    expect(fromMissing.stdout).not.toContain('Job has been submitted');

    const list = await c.weir(['list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.match(/^[0-9a-f]{32}\s/gm), list.stdout).toHaveLength(1);
    expect(snapshotOf(checkpoints)).toEqual(before);
    expect(readFileSync(join(good, '_metadata')).length).toBe(before[`${jobId}/${good.split('/').pop()}/_metadata`]);

    const withN = await c.weir(['run', '--detached', '-n', '-s', good, writeJobFile(OTHER_SHAPE)]);
    expect(withN.code, `${withN.stderr}\n${c.logs()}`).toBe(0);
    const details = await waitForStatus(c.client, jobIdFrom(withN.stdout), ['FINISHED', 'FAILED', 'CANCELED'], 30_000);
    expect(details.summary!.status, details.failureCause).toBe('FINISHED');
  });
});
