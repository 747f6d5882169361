import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WeirError } from '@weir/common';
import { workerJobPlanner } from '../submit/worker-job-planner.ts';
import type { PlannedJob } from '../submit/job-planner.ts';
import { silentLogger } from '@weir/common/testing';
import type { JobWorker } from './job-worker.ts';

const defaults = { parallelism: 2, maxParallelism: -1, bufferTimeoutMs: 100, objectReuse: false };

const pipeline = `
  const { DataGeneratorSource, DiscardingSink, RateLimiterStrategy } = require('@weir/connectors');
  exports.default = function sums(env, args) {
    BODY
    env.fromSource(new DataGeneratorSource((i) => i, Number(args[0]), RateLimiterStrategy.noOp()), 'numbers').uid('numbers')
      .map((n) => n * 2).uid('double')
      .sinkTo(new DiscardingSink()).uid('sink');
  };`;

const job = (body: string, top = '') => `${top}\n${pipeline.replace('BODY', body)}`;

const planned: PlannedJob[] = [];
afterEach(async () => {
  await Promise.all(planned.splice(0).map((p) => p.userCode.close()));
});

// One planner per limits, so its spare worker process (from sources: tsx compiles Weir's modules in it, slow under load) serves the next test.
const planners = new Map<string, ReturnType<typeof workerJobPlanner>>();
afterAll(() => {
  for (const planner of planners.values()) planner.close();
});

async function plan(code: string, options: { mainTimeoutMs?: number; heapSizeBytes?: number } = {}): Promise<PlannedJob> {
  const mainTimeoutMs = options.mainTimeoutMs ?? 10_000;
  const heapSizeBytes = options.heapSizeBytes ?? 256 * 1024 ** 2;
  const key = `${mainTimeoutMs}/${heapSizeBytes}`;
  const planner = planners.get(key) ?? workerJobPlanner({ mainTimeoutMs, heapSizeBytes, readPaths: [], systemExit: 'THROW', logger: silentLogger() });
  planners.set(key, planner);
  const result = await planner.plan({ jobId: 'a'.repeat(32), code, entryName: 'job.ts', args: ['5'], defaults });
  planned.push(result);
  return result;
}

async function failure(code: string, options: { mainTimeoutMs?: number; heapSizeBytes?: number } = {}): Promise<{ code: string; message: string }> {
  const err = await plan(code, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof WeirError)) throw new Error(`expected a WeirError, got ${String(err)}`);
  return { code: err.code, message: err.message };
}

// Each test starts worker processes that load Weir's modules through tsx: slow on a loaded machine.
describe('planning in the job worker', { timeout: 180_000 }, () => {
  it("builds the job graph in a worker process and keeps the worker for the job", async () => {
    const result = await plan(job(''));
    expect(result.jobGraph.jobName).toBe('sums');
    expect(result.jobGraph.vertices.map((v) => v.operators.map((op) => op.uid))).toEqual([['numbers', 'double', 'sink']]);
    expect(result.operatorsWithoutUid).toEqual([]);
    expect(result.executionConfig.parallelism).toBe(2);
  });

  it('a main that loops fails after the time limit, and the worker is ended', async () => {
    expect(await failure(job('for (;;) {}'), { mainTimeoutMs: 300 })).toEqual({
      code: 'USER_CODE_TIMEOUT',
      message:
        "job job.ts could not be built: the job's main did not return within 300ms (jobmanager.job-main.timeout); a main defines sources, operators and sinks and returns: it must not wait for input or loop",
    });
    expect((await failure(job('await new Promise(() => {});').replace('function sums', 'async function sums'), { mainTimeoutMs: 300 })).code).toBe('USER_CODE_TIMEOUT');
  });

  it('process.exit in main or at load throws USER_SYSTEM_EXIT into the job, naming it', async () => {
    const exitMessage =
      "job job.ts could not be built: the job's code called process.exit(3): a job may not end the process it runs in, with every other job there, so the call throws instead (cluster.intercept-user-system-exit: THROW); to fail the job, throw an error";
    expect(await failure(job('process.exit(3);'))).toEqual({ code: 'USER_SYSTEM_EXIT', message: exitMessage });
    expect(await failure(job('', 'process.exit(3);'))).toEqual({ code: 'USER_SYSTEM_EXIT', message: exitMessage });
  });

  it('a main that throws or eats its heap fails the submission with the cause', async () => {
    expect(await failure(job('throw new Error("no config");'))).toEqual({
      code: 'INVALID_JOB',
      message: "the job's main threw while building the job: no config",
    });
    const oom = await failure(job('const keep = []; for (;;) keep.push(new Array(100000).fill(Math.random()));'), { heapSizeBytes: 32 * 1024 ** 2 });
    expect(oom).toEqual({
      code: 'USER_CODE_FAILED',
      message:
        "job job.ts could not be built: the job's code ran out of memory in its worker on the JobManager (heap limit 32mb, jobmanager.user-code.heap-size); build smaller objects in main, or raise the limit",
    });
  });

  it("reports the worker's death after planning to the job, and serves the next request from a new process", async () => {
    const result = await plan(job('setTimeout(() => { throw new Error("late failure"); }, 50);'));
    const cause = await new Promise<WeirError>((resolve) => result.userCode.onDeath(resolve));
    expect(cause.code).toBe('USER_CODE_FAILED');
    expect(cause.message).toMatch(/^the job's code threw outside of any call into it, which ended its worker on the JobManager: Error: late failure\n/);
    const worker = result.userCode as JobWorker;
    const again = await worker.request('plan', { args: ['5'], defaults }, { timeoutMs: 10_000, what: "the job's main" });
    expect(again.jobGraph.jobName).toBe('sums');
  });
});
