import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, jobIdFrom, ProcessCluster, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';

/** A slow generator into a FileSink that sets no checkpointing and no restart strategy of its own. */
const PLAIN_JOB = `
import type { StreamExecutionEnvironment } from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder } from '@weir/connectors';
export default function plain(env: StreamExecutionEnvironment, args: string[]) {
  env.fromSource(new DataGeneratorSource((i: number) => String(i), 1_000_000, RateLimiterStrategy.perSecond(200)), 'numbers').uid('numbers')
    .sinkTo(FileSink.forRowFormat(args[0]!, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/**
 * `weir run -D key=value` gives the job those settings, as Flink's `flink run -D` does (issue
 * 27): checkpointing and a restart strategy the job's code does not set, shown by `weir info`;
 * a key of the cluster's processes is refused before anything is submitted.
 */
describe('weir run -D: the job\'s own configuration', () => {
  let cluster: ProcessCluster;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-run-config-'));
    cluster = await ProcessCluster.start({ taskManagers: 1, slots: 1, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('checkpoints and restarts as the -D keys say, and weir info shows them', async () => {
    const job = writeJobFile(PLAIN_JOB);
    const properties = ['-D', 'execution.checkpointing.interval=500ms', '-D', 'restart-strategy.type=fixed-delay', '-D', 'restart-strategy.fixed-delay.attempts=7'];
    const run = await cluster.weir(['run', '--detached', ...properties, job, '--', join(dir, 'out')]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    await waitForCheckpoints(cluster.client, jobId, (checkpoints) => completedCount(checkpoints) >= 2, 30_000);
    const info = await cluster.weir(['info', jobId]);
    expect(info.stdout).toContain('checkpoints: every 500ms, EXACTLY_ONCE, filesystem backend');
    expect(info.stdout).toContain('restarts: fixed-delay: 7 attempts, 1s apart');
    expect(info.stdout).toContain('configuration: -D execution.checkpointing.interval=500ms -D restart-strategy.type=fixed-delay -D restart-strategy.fixed-delay.attempts=7');
    await cluster.weir(['cancel', jobId]);
  });

  it('refuses a key that cannot apply to a job, before submitting', async () => {
    const run = await cluster.weir(['run', '--detached', '-D', 'taskmanager.numberOfTaskSlots=4', writeJobFile(PLAIN_JOB), '--', join(dir, 'refused')]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('weir run -D taskmanager.numberOfTaskSlots=4: taskmanager.numberOfTaskSlots cannot apply to a job');
    expect(run.stdout).not.toContain('JobID');
  });
});
