import { afterEach, describe, expect, it } from 'vitest';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, jobIdFrom, ProcessCluster, savepointPathFrom, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';
import { LEVEL_RUNNING_SUMS } from './level-jobs.ts';

const RECORDS = 12_000;
const RATE = '1500';
const INTERVAL_MS = '300';

describe('switching the state backend through savepoints on a process cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('stops a heap job with a savepoint, runs on in LevelDB from it, stops again and finishes on the heap: exactly the expected sums', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-backend-switch-'));
    const checkpoints = join(dir, 'checkpoints');
    const c = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': checkpoints, 'state.savepoints.dir': join(dir, 'savepoints') } });
    cleanups.push(() => c.stop());
    const output = join(dir, 'out');
    const heapJob = writeJobFile(RUNNING_SUMS, 'heap-sums.ts');
    const levelJob = writeJobFile(LEVEL_RUNNING_SUMS, 'level-sums.ts');

    /** Runs until two checkpoints completed, then stops with a savepoint; returns its path. */
    const runThenStop = async (args: string[]): Promise<string> => {
      const run = await c.weir(['run', '--detached', ...args]);
      expect(run.code, run.stderr).toBe(0);
      const jobId = jobIdFrom(run.stdout);
      await waitForCheckpoints(c.client, jobId, (cps) => completedCount(cps) >= 2, 30_000);
      const stop = await c.weir(['stop', jobId]);
      expect(stop.code, `${stop.stdout}\n${stop.stderr}`).toBe(0);
      return savepointPathFrom(stop);
    };

    const onHeap = await runThenStop([heapJob, '--', output, String(RECORDS), RATE, INTERVAL_MS, 'EXACTLY_ONCE', checkpoints]);
    const inLevel = await runThenStop(['-s', onHeap, levelJob, '--', output, String(RECORDS), RATE, INTERVAL_MS, checkpoints, 'true']);
    const last = await c.weir(['run', '-s', inLevel, heapJob, '--', output, String(RECORDS), '6000', INTERVAL_MS, 'EXACTLY_ONCE', checkpoints]);
    expect(last.code, `${last.stdout}\n${last.stderr}`).toBe(0);
    await waitForStatus(c.client, jobIdFrom(last.stdout), ['FINISHED']);
    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(RECORDS));
  });
});
