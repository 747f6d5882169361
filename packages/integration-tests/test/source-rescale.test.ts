import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCommittedLines } from '@weir/examples';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, getJob, jobIdFrom, ProcessCluster, savepointPathFrom, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { expectedGeneratorSums, GENERATOR_SUMS } from './source-rescale-jobs.ts';

const RECORDS = 12_000;

/** The newest complete checkpoint the job retained on disk. */
function latestRetainedCheckpoint(checkpoints: string, jobId: string): string {
  const ids = readdirSync(join(checkpoints, jobId))
    .filter((d) => /^chk-\d+$/.test(d) && existsSync(join(checkpoints, jobId, d, '_metadata')))
    .map((d) => Number(d.slice(4)));
  expect(ids.length, `retained checkpoints of ${jobId}`).toBeGreaterThan(0);
  return join(checkpoints, jobId, `chk-${Math.max(...ids)}`);
}

/**
 * Issue 12 item 4 on a process cluster: a DataGeneratorSource restored at another parallelism
 * deals its remaining splits over the new readers, and a FileSink restored with another
 * directory commits the restored checkpoint's parts where they were written. No run commits
 * what it hands over: the first ends with `weir cancel -s` (a savepoint its own sink never
 * commits), the second with a plain cancel that leaves its retained checkpoint (a savepoint
 * needs every task running, and at parallelism 3 one reader of the two splits has finished).
 * Each next run writes to a new directory and must commit those parts in the old one.
 */
describe('sources and sinks restored at another parallelism and into another directory', () => {
  let cluster: ProcessCluster;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-source-rescale-'));
    cluster = await ProcessCluster.start({ taskManagers: 2, slots: 3, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  async function runUntilCheckpointed(output: string, parallelism: number, rate: number, savepoint?: string): Promise<string> {
    const restore = savepoint === undefined ? [] : ['-s', savepoint];
    const run = await cluster.weir(['run', '--detached', ...restore, '-p', String(parallelism), writeJobFile(GENERATOR_SUMS), '--', output, String(RECORDS), String(rate), '300']);
    expect(run.code, `${run.stdout}\n${run.stderr}\n${cluster.logs()}`).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    await waitForCheckpoints(cluster.client, jobId, (cps) => completedCount(cps) >= 2, 60_000);
    return jobId;
  }

  it('restores a generator 2 -> 3 -> 1 with each run writing to its own directory, and the directories together hold exactly the expected sums', async () => {
    const outputs = [join(dir, 'out-p2'), join(dir, 'out-p3'), join(dir, 'out-p1')];

    const first = await runUntilCheckpointed(outputs[0]!, 2, 1_000);
    const cancel1 = await cluster.weir(['cancel', '-s', join(dir, 'savepoints'), first]);
    expect(cancel1.code, `${cancel1.stdout}\n${cancel1.stderr}`).toBe(0);

    const second = await runUntilCheckpointed(outputs[1]!, 3, 1_000, savepointPathFrom(cancel1));
    expect((await getJob(cluster.client, second)).vertices.map((v) => v.parallelism)).toEqual([3, 3]);
    const cancel2 = await cluster.weir(['cancel', second]);
    expect(cancel2.code, `${cancel2.stdout}\n${cancel2.stderr}`).toBe(0);
    await waitForStatus(cluster.client, second, ['CANCELED']);

    const last = await cluster.weir(['run', '-s', latestRetainedCheckpoint(join(dir, 'checkpoints'), second), '-p', '1', writeJobFile(GENERATOR_SUMS), '--', outputs[2]!, String(RECORDS), '20000', '300'], {
      timeoutMs: 120_000,
    });
    expect(last.code, `${last.stdout}\n${last.stderr}\n${cluster.logs()}`).toBe(0);
    expect(last.stdout).toContain('FINISHED');

    const perDirectory = outputs.map((output) => readCommittedLines(output));
    // Every run committed something into its own directory, the restored parts included.
    for (const [i, lines] of perDirectory.entries()) expect(lines.length, outputs[i]).toBeGreaterThan(0);
    expect(perDirectory.flat().sort()).toEqual(expectedGeneratorSums(RECORDS));
  });
});
