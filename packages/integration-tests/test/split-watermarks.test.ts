import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffLines, readCommittedLines } from '@weir/examples';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, jobIdFrom, ProcessCluster, savepointPathFrom, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { killTaskManagersAtRandom } from './chaos.ts';
import { expectedWindowTotals, FILE_WINDOWED_TOTALS, GENERATOR_WINDOWED_TOTALS, splitEventLine } from './split-watermark-jobs.ts';

/**
 * Issue 23 for the FileSource and the DataGeneratorSource: event-time windows and running
 * totals with several splits per reader, exact with and without a restore, and no event late.
 * A FileSource reader reads its files one after another, asking for the next when one ends; a
 * generator reader reads its splits round-robin, and has several only when restored at a lower
 * parallelism than its first run's. After a rescale, a reader holds splits that were read side
 * by side over the same stretch of event time: the one it reads second must not be late behind
 * the first.
 */
describe('event-time windows with several splits per reader: files and generators', () => {
  let cluster: ProcessCluster;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-split-watermarks-'));
    cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 2,
      config: { 'state.checkpoints.dir': join(dir, 'checkpoints'), 'state.savepoints.dir': join(dir, 'savepoints') },
    });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  async function submit(job: string, args: string[], parallelism: number, savepoint?: string): Promise<string> {
    const restore = savepoint === undefined ? [] : ['-s', savepoint];
    const run = await cluster.weir(['run', '--detached', ...restore, '-p', String(parallelism), writeJobFile(job), '--', ...args]);
    expect(run.code, `${run.stdout}\n${run.stderr}\n${cluster.logs()}`).toBe(0);
    return jobIdFrom(run.stdout);
  }

  /** Runs until a checkpoint completed, then stops with a savepoint (no drain: no window fires that the savepoint holds). */
  async function stopHalfway(jobId: string): Promise<string> {
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    await waitForCheckpoints(cluster.client, jobId, (cps) => completedCount(cps) >= 1, 60_000);
    const stop = await cluster.weir(['stop', jobId]);
    expect(stop.code, `${stop.stdout}\n${stop.stderr}\n${cluster.logs()}`).toBe(0);
    return savepointPathFrom(stop);
  }

  async function expectFinishedWith(jobId: string, output: string, expected: string[], evidence = ''): Promise<void> {
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(details.summary!.status, `${details.failureCause}\n${evidence}\n${cluster.logs()}`).toBe('FINISHED');
    const { missing, extra } = diffLines(readCommittedLines(output).sort(), expected);
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }, evidence).toEqual({
      missing: [],
      extra: [],
      counts: [0, 0],
    });
  }

  it('a generator run at p=4, stopped with a savepoint and resumed at p=2 (two splits per reader) with a TaskManager SIGKILLed', async () => {
    const events = 12_000;
    const span = events / 4;
    const output = join(dir, 'generator-out');
    const args = (rate: number) => [output, String(events), String(rate), String(span), 'heap', join(dir, 'generator-checkpoints')];
    const savepoint = await stopHalfway(await submit(GENERATOR_WINDOWED_TOTALS, args(2_000), 4));
    const resumed = await submit(GENERATOR_WINDOWED_TOTALS, args(1_500), 2, savepoint);
    await waitForStatus(cluster.client, resumed, ['RUNNING']);
    const chaos = await killTaskManagersAtRandom(cluster, 1, 1_500, 0);
    await expectFinishedWith(resumed, output, expectedWindowTotals(events, span), chaos.join('\n'));
  });

  /** `files` files of `perFile` lines each; with `sameTimes` every file covers the same stretch of event time, else each the stretch after the one before. */
  function writeInput(name: string, files: number, perFile: number, sameTimes: boolean): string {
    const input = join(dir, name);
    mkdirSync(input);
    for (let f = 0; f < files; f++) {
      const lines = Array.from({ length: perFile }, (_, k) => splitEventLine(f * perFile + k, sameTimes ? perFile : undefined));
      writeFileSync(join(input, `part-${f}.txt`), `${lines.join('\n')}\n`);
    }
    return input;
  }

  it('files read one after another, three per reader at p=2, each after the one before in event time', async () => {
    const input = writeInput('files-in', 6, 2_000, false);
    const output = join(dir, 'files-out');
    const jobId = await submit(FILE_WINDOWED_TOTALS, [input, output, '1000000', 'level-incremental', join(dir, 'files-checkpoints')], 2);
    await expectFinishedWith(jobId, output, expectedWindowTotals(12_000));
  });

  it('two files read side by side at p=2 over the same event time, stopped with a savepoint and resumed at p=1: one reader reads both, the second not late', async () => {
    const input = writeInput('overlapping-in', 2, 4_000, true);
    const output = join(dir, 'overlapping-out');
    const args = (rate: number) => [input, output, String(rate), 'heap', join(dir, 'overlapping-checkpoints')];
    const savepoint = await stopHalfway(await submit(FILE_WINDOWED_TOTALS, args(300), 2));
    const resumed = await submit(FILE_WINDOWED_TOTALS, args(1_000_000), 1, savepoint);
    await expectFinishedWith(resumed, output, expectedWindowTotals(8_000, 4_000));
  });
});
