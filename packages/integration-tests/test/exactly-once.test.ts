import { afterEach, describe, expect, it } from 'vitest';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3rver } from '@weir/storage/testing';
import { completedCount, jobIdFrom, listCheckpoints, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { killTaskManagersAtRandom } from './chaos.ts';
import { expectedTwoRates, RUNNING_SUMS, TWO_RATES } from './checkpoint-jobs.ts';

const RECORDS = 30_000;
const RATE = 2_500;

describe('exactly-once under SIGKILLed TaskManagers', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function runWithKills(config: Record<string, string | number>, job: string, args: string[], kills = 3): Promise<{ output: string; chaos: string[]; cluster: ProcessCluster; jobId: string }> {
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config });
    cleanups.push(() => cluster.stop());
    const output = args[0]!;
    const run = await cluster.weir(['run', '--detached', writeJobFile(job), '--', ...args]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    const chaos = await killTaskManagersAtRandom(cluster, kills, 3_000, 3_500);
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 180_000);
    expect(details.summary!.status, `${details.failureCause}\n${chaos.join('\n')}\n${cluster.logs()}`).toBe('FINISHED');
    expect(details.attempt, chaos.join('\n')).toBeGreaterThanOrEqual(1);
    return { output, chaos, cluster, jobId };
  }

  // Object reuse alternates over the cases, so both modes are covered without running a case twice:
  // with slot sharing, subtask i of the source and of the keyed operator share a slot, so the
  // keyBy channel i -> i is local and goes as objects under reuse; the other channels are remote.
  it('gives exactly the expected running sums with a local checkpoint dir (object reuse off)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-eo-'));
    const { output, chaos, cluster, jobId } = await runWithKills({ 'state.checkpoints.dir': join(dir, 'checkpoints'), 'pipeline.object-reuse': 'false' }, RUNNING_SUMS, [
      join(dir, 'out'),
      String(RECORDS),
      String(RATE),
      '500',
      'EXACTLY_ONCE',
    ]);
    expect(readCommittedLines(output).sort(), chaos.join('\n')).toEqual(expectedRunningSums(RECORDS));
    const history = await listCheckpoints(cluster.client, jobId);
    expect(completedCount(history.checkpoints)).toBeGreaterThan(3);
  });

  it('gives exactly the expected running sums with checkpoints on S3 (s3rver) (object reuse on)', async () => {
    const s3 = await startS3rver();
    cleanups.push(() => s3.stop());
    const dir = mkdtempSync(join(tmpdir(), 'weir-eo-s3-'));
    const { output, chaos } = await runWithKills(
      {
        's3.endpoint': s3.endpoint,
        's3.access-key': s3.settings.accessKey!,
        's3.secret-key': s3.settings.secretKey!,
        's3.path-style-access': 'true',
        // The job names its own checkpoint directory on S3: the JobManager allows only directories it is told.
        'state.savepoints.allowed-dirs': `${tmpdir()},s3://${s3.bucket}`,
        'pipeline.object-reuse': 'true',
      },
      RUNNING_SUMS,
      [join(dir, 'out'), String(RECORDS), String(RATE), '500', 'EXACTLY_ONCE', `s3://${s3.bucket}/checkpoints`],
    );
    expect(readCommittedLines(output).sort(), chaos.join('\n')).toEqual(expectedRunningSums(RECORDS));
  });

  it('loses nothing in AT_LEAST_ONCE mode (object reuse off)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-alo-'));
    const { output, chaos } = await runWithKills({ 'state.checkpoints.dir': join(dir, 'checkpoints'), 'pipeline.object-reuse': 'false' }, RUNNING_SUMS, [
      join(dir, 'out'),
      String(RECORDS),
      String(RATE),
      '500',
      'AT_LEAST_ONCE',
    ], 2);
    const seen = new Set(readCommittedLines(output).map((line) => Number(line.split(' ')[1])));
    const missing = Array.from({ length: RECORDS }, (_, i) => i).filter((i) => !seen.has(i));
    expect(missing, chaos.join('\n')).toEqual([]);
  });

  it('aligns barriers of a fast and a slow input exactly-once (object reuse on)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-align-'));
    const { output, chaos } = await runWithKills({ 'state.checkpoints.dir': join(dir, 'checkpoints'), 'pipeline.object-reuse': 'true' }, TWO_RATES, [join(dir, 'out'), '30000', '1000', '500'], 2);
    expect(readCommittedLines(output).sort(), chaos.join('\n')).toEqual(expectedTwoRates(30_000, 1_000));
  });
});
