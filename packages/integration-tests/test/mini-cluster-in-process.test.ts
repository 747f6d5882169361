import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiniCluster } from '@weir/testing';
import { until } from '../src/index.ts';

/*
 * Issue 26, @weir/testing's in-process MiniCluster failover: the job module of
 * mini-cluster.test.ts (a rate-limited DataGeneratorSource, keyed state, a CollectSink) run in
 * this process, a task failed by failTask after a checkpoint, and every key's count 1..n in
 * the committed output exactly once (restored from the in-memory checkpoint: neither lost nor
 * repeated).
 */
describe('MiniCluster in-process failover', () => {
  const cluster = new MiniCluster({ mode: 'in-process', taskManagers: 2 });

  beforeAll(() => cluster.start());
  afterAll(() => cluster.close());

  it('restarts the tasks from the last in-memory checkpoint after failTask, and the collected output is exact', async () => {
    const count = 2_000;
    // Checkpoints only on demand (an hour's interval) and at the end of the input.
    const execution = await cluster.execute(new URL('./mini-cluster-jobs.ts', import.meta.url), { args: [String(count), '400', '3600000'], parallelism: 2 });
    const done = execution.result();
    await until(() => cluster.triggerCheckpoint(execution.jobId), (id) => id > 0, 60_000, 'a checkpoint');
    await until(async () => execution.collected<string>('numbered').length, (n) => n > 0, 60_000, 'committed output');
    cluster.failTask(execution.jobId, 'numbers', 0);
    await done;
    expect(execution.statuses).toEqual(['RUNNING', 'RESTARTING', 'RUNNING', 'FINISHED']);
    const expected = Array.from({ length: count }, (_, i) => `${i % 4}:${Math.floor(i / 4) + 1}`);
    expect(execution.collected<string>('numbered').sort()).toEqual(expected.sort());
  }, 180_000);
});
