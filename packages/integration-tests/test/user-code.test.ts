import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { getJob, jobIdFrom, ProcessCluster, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';
import { EXITING_MAP, HUNGRY_MAIN, LOOPING_MAIN } from './robustness-jobs.ts';

/*
 * Issue 12: user code cannot take the cluster down. The job's main runs in a worker process
 * of its own on the JobManager, with a time and a memory limit; process.exit in a job fails
 * the job, not the process.
 */
describe("a job's code cannot take the JobManager or a TaskManager down", () => {
  let cluster: ProcessCluster;

  beforeAll(async () => {
    cluster = await ProcessCluster.start({
      taskManagers: 1,
      slots: 2,
      // The limit on main is longer than it takes a worker process to fill 64mb and die of it on a loaded machine.
      config: { 'jobmanager.job-main.timeout': '10s', 'jobmanager.user-code.heap-size': '64mb' },
    });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  /** The JobManager answers at once while the job is being refused or fails. */
  async function expectServing(): Promise<void> {
    const list = await cluster.weir(['list'], { timeoutMs: 15_000 });
    expect(list.code, list.stderr + cluster.logs()).toBe(0);
    expect(cluster.jobManager.running).toBe(true);
  }

  it('a main that never returns: the submitter gets a clear error after the time limit, and the JobManager serves meanwhile', async () => {
    const run = cluster.weir(['run', writeJobFile(LOOPING_MAIN, 'looping.ts')]);
    await new Promise((r) => setTimeout(r, 1_000));
    await expectServing();
    const result = await run;
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "error: job looping.ts could not be built: the job's main did not return within 10s (jobmanager.job-main.timeout); a main defines sources, operators and sinks and returns: it must not wait for input or loop\n",
    );
    await expectServing();
  });

  it('a raw SubmitJob whose bundle calls process.exit(3), at load or in main, is refused', async () => {
    for (const code of ['process.exit(3);', 'exports.default = function (env) { process.exit(3); };']) {
      const refused = await new Promise<{ code?: string; message: string }>((resolve) => {
        cluster.client.submitJob({ bundle: Buffer.from(code), entryName: 'exit.js', args: [], parallelism: 0 }, (err) =>
          resolve({ code: err?.metadata.get('weir-error-code')[0] as string | undefined, message: err?.details ?? '' }),
        );
      });
      expect(refused).toEqual({
        code: 'USER_SYSTEM_EXIT',
        message:
          "job exit.js could not be built: the job's code called process.exit(3): a job may not end the process it runs in, with every other job there, so the call throws instead (cluster.intercept-user-system-exit: THROW); to fail the job, throw an error",
      });
    }
    await expectServing();
  });

  it('a main that eats its heap is refused, the JobManager keeps its own', async () => {
    const run = await cluster.weir(['run', writeJobFile(HUNGRY_MAIN, 'hungry.ts')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "error: job hungry.ts could not be built: the job's code ran out of memory in its worker on the JobManager (heap limit 64mb, jobmanager.user-code.heap-size); build smaller objects in main, or raise the limit\n",
    );
    await expectServing();
  });

  it('process.exit(3) in a map fails the job with USER_SYSTEM_EXIT, and the TaskManager runs on', async () => {
    const run = await cluster.weir(['run', writeJobFile(EXITING_MAP, 'exiting.ts')]);
    expect(run.code).toBe(1);
    const jobId = jobIdFrom(run.stdout);
    const details = await getJob(cluster.client, jobId);
    expect(details.summary!.status).toBe('FAILED');
    expect(details.failureCause).toContain(
      "the job's code called process.exit(3): a job may not end the process it runs in, with every other job there, so the call throws instead (cluster.intercept-user-system-exit: THROW); to fail the job, throw an error",
    );
    // The stack trace points at the job's own line 7, the map's (source maps), not at the bundle's.
    expect(details.failureCause).toMatch(/\n {4}at .*\(\/weir-job\/[0-9a-f]{12}\/exiting\.ts:7:\d+\)\n/);
    expect(run.stderr).toContain(`error: job ${jobId} failed: `);
    expect(run.stderr).toContain('the job\'s code called process.exit(3)');
    expect(cluster.taskManagers[0]!.running).toBe(true);
  });

  it('after all that, the same JobManager and TaskManager run a job to its exact output', async () => {
    const work = mkdtempSync(join(tmpdir(), 'weir-after-abuse-'));
    const output = join(work, 'out');
    const run = await cluster.weir(['run', writeJobFile(RUNNING_SUMS, 'sums.ts'), '--', output, '400', '4000', '200', 'EXACTLY_ONCE', join(work, 'checkpoints')]);
    expect(run.code, run.stdout + run.stderr + cluster.logs()).toBe(0);
    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(400));
  });
});
