import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiniCluster } from '@weir/testing';
import { runWeir, until } from '../src/index.ts';

/*
 * Issue 26, @weir/testing's MiniCluster: a job run by `execute` on real JobManager and
 * TaskManager processes, a TaskManager SIGKILLed while it runs, and the CollectSink's output
 * exactly once (every key's count 1..n once: neither lost nor repeated across the restore).
 */
describe('MiniCluster', () => {
  const cluster = new MiniCluster({ taskManagers: 2, slots: 2 });

  beforeAll(() => cluster.start());
  afterAll(() => cluster.close());

  it('runs a job, survives a killed TaskManager, and collects its output exactly once', async () => {
    const count = 2_000;
    const execution = await cluster.execute(new URL('./mini-cluster-jobs.ts', import.meta.url), { args: [String(count), '250'], parallelism: 2 });
    // Once some checkpoint committed output, the job has state to restore.
    await until(async () => execution.collected<string>('numbered').length, (n) => n > 0, 60_000, 'a committed checkpoint of the CollectSink');
    cluster.killTaskManager(1);
    await execution.result();
    expect(execution.statuses).toContain('RESTARTING');
    const expected = Array.from({ length: count }, (_, i) => i % 4).reduce<string[]>((out, key, i) => [...out, `${key}:${Math.floor(i / 4) + 1}`], []);
    expect(execution.collected<string>('numbered').sort()).toEqual(expected.sort());
  });

  it('takes a checkpoint on demand (weir checkpoint and triggerCheckpoint), long before the interval, and its output is committed', async () => {
    // An hour's interval: only an on-demand checkpoint commits anything while the job runs.
    const execution = await cluster.execute(new URL('./mini-cluster-jobs.ts', import.meta.url), { args: ['1000000', '200', '3600000'], parallelism: 2 });
    // Refused (JOB_NOT_RUNNING) until every task runs.
    const first = await until(() => cluster.triggerCheckpoint(execution.jobId).catch(() => 0), (id) => id > 0, 60_000, 'an on-demand checkpoint once the tasks run');
    await until(async () => execution.collected<string>('numbered').length, (n) => n > 0, 60_000, "the on-demand checkpoint's committed output");
    const cli = await runWeir(['checkpoint', execution.jobId, '--full', '-m', cluster.jobManagerAddress]);
    expect(cli.stdout).toMatch(new RegExp(`^Checkpoint ${first + 1} completed\\. Path: \\S+chk-${first + 1}$`, 'm'));
    expect(cli.code).toBe(0);
    await execution.cancel();
    const ended = await runWeir(['checkpoint', execution.jobId, '-m', cluster.jobManagerAddress]);
    expect(ended.code).not.toBe(0);
    expect(ended.stderr).toMatch(/a checkpoint can only be taken of a RUNNING job|no running attempt/);
  }, 240_000);

  it('refuses a TaskManager it does not have', () => {
    expect(() => cluster.killTaskManager(3)).toThrow(expect.objectContaining({ code: 'NO_SUCH_TASKMANAGER' }));
  });
});
