import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CommonErrorCode, JobStatus, ManualClock, WeirError, defaultConfig, type WeirConfig } from '@weir/common';
import { BlobStore } from '../blob/blob-store.ts';
import { Dispatcher } from '../dispatcher.ts';
import type { JobDefaults } from '../job/job-spec.ts';
import { SlotPool } from '../scheduler/slot-pool.ts';
import { FakeGateway, jobGraph, silentLogger, vertex } from '../test-fixtures.ts';
import type { JobPlan, JobPlanner } from './job-planner.ts';
import { JobSubmitter } from './job-submitter.ts';

const config: WeirConfig = { ...defaultConfig(), 'parallelism.default': 3, 'pipeline.max-parallelism': 256, 'execution.buffer-timeout': 50 };

async function setup(plan: (defaults: JobDefaults) => Promise<JobPlan>) {
  const dir = await mkdtemp(join(tmpdir(), 'weir-submit-'));
  const blobStore = await BlobStore.open(dir);
  const logger = silentLogger();
  const gateway = new FakeGateway();
  const dispatcher = new Dispatcher({ clock: new ManualClock(), logger, slotPool: new SlotPool(), gateway, slotRequestTimeoutMs: 1_000 });
  const calls: { code: string; entryName: string; args: readonly string[]; defaults: JobDefaults }[] = [];
  const planner: JobPlanner = {
    plan(code, entryName, args, defaults) {
      calls.push({ code, entryName, args, defaults });
      return plan(defaults);
    },
  };
  const warn = vi.spyOn(logger, 'warn');
  return { dir, blobStore, dispatcher, calls, warn, submitter: new JobSubmitter(planner, blobStore, dispatcher, config, logger) };
}

const request = (parallelism: number) => ({ bundle: Buffer.from('bundle code'), entryName: 'wc.ts', args: ['a'], parallelism });

describe('JobSubmitter', () => {
  it('plans with the request parallelism or the configured default, stores the bundle and starts the job', async () => {
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: [] }));
    const response = await s.submitter.submit(request(0));
    await s.submitter.submit(request(5));
    expect(s.calls.map((c) => [c.code, c.entryName, c.args, c.defaults])).toEqual([
      ['bundle code', 'wc.ts', ['a'], { parallelism: 3, maxParallelism: 256, bufferTimeoutMs: 50 }],
      ['bundle code', 'wc.ts', ['a'], { parallelism: 5, maxParallelism: 256, bufferTimeoutMs: 50 }],
    ]);
    expect(response.jobName).toBe('test job');
    expect(response.jobId).toMatch(/^[0-9a-f]{32}$/);
    const job = s.dispatcher.get(response.jobId!);
    expect(job.status).toBe(JobStatus.CREATED);
    expect(s.blobStore.get(job.spec.bundleHash).toString()).toBe('bundle code');
    expect(s.dispatcher.list()).toHaveLength(2);
    expect(s.warn).not.toHaveBeenCalled();
  });

  it('warns once per job about operators without uid, naming them', async () => {
    const s = await setup(async () => ({ jobGraph: jobGraph(vertex('src', 1)), operatorsWithoutUid: ['Map', 'Sink: print'] }));
    const { jobId } = await s.submitter.submit(request(1));
    expect(s.warn).toHaveBeenCalledTimes(1);
    expect(s.warn.mock.calls[0]).toEqual([
      { jobId, operators: ['Map', 'Sink: print'] },
      'operators without uid: Map, Sink: print; their state cannot be restored once the job changes, set .uid() on each',
    ]);
  });

  it('returns a planning error as it is and changes nothing', async () => {
    const error = new WeirError(CommonErrorCode.INVALID_JOB, 'job wc.ts has no default export function');
    const s = await setup(async () => {
      throw error;
    });
    await expect(s.submitter.submit(request(1))).rejects.toBe(error);
    expect(s.dispatcher.list()).toEqual([]);
    expect(await readdir(s.dir)).toEqual([]);
  });
});
