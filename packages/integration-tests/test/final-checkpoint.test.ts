import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, jobIdFrom, listCheckpoints, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { expectedTwoRates, RUNNING_SUMS, TWO_RATES } from './checkpoint-jobs.ts';
import { BACKPRESSURED_SUMS } from './unaligned-jobs.ts';

/** Far longer than the jobs run: with checkpoints only at the interval, none would finish before it. */
const INTERVAL_MS = 60_000;
/** The jobs run 2-3 s; a third of the interval leaves room for a loaded machine. */
const PROMPT_MS = 20_000;

/**
 * A bounded job with checkpointing finishes after its final checkpoint (FLIP-147), and the
 * JobManager takes that one as soon as every task's input ended, not at the next interval.
 */
describe('the final checkpoint of a bounded job', () => {
  let cluster: ProcessCluster;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-final-'));
    cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** Runs the job to its end; returns its output directory once it FINISHED, having asserted it did within PROMPT_MS of RUNNING, with one checkpoint. */
  async function runPromptly(name: string, job: string, args: (output: string) => string[]): Promise<string> {
    const output = join(dir, name);
    const run = await cluster.weir(['run', '--detached', writeJobFile(job), '--', ...args(output)]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    const started = Date.now();
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], INTERVAL_MS + 10_000);
    const tookMs = Date.now() - started;
    expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    expect(tookMs, `${name} ran from RUNNING to FINISHED in ${tookMs} ms`).toBeLessThan(PROMPT_MS);
    const { checkpoints } = await listCheckpoints(cluster.client, jobId);
    // The interval never came: the one checkpoint is the final one, triggered when the inputs ended.
    expect(completedCount(checkpoints), JSON.stringify(checkpoints)).toBe(1);
    return output;
  }

  it('finishes a keyed job exactly-once right after its input ends', async () => {
    const output = await runPromptly('sums', RUNNING_SUMS, (out) => [out, '6000', '3000', String(INTERVAL_MS), 'EXACTLY_ONCE']);
    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(6_000));
  });

  it('waits for the last of two sources that end seconds apart, then finishes exactly-once', async () => {
    // The slow source's 50 events end after ~0.5 s, the fast source's 6000 after ~2 s.
    const output = await runPromptly('two-rates', TWO_RATES, (out) => [out, '6000', '50', String(INTERVAL_MS)]);
    expect(readCommittedLines(output).sort()).toEqual(expectedTwoRates(6_000, 50));
  });

  it('finishes promptly with unaligned checkpoints behind a slow stage', async () => {
    const output = await runPromptly('unaligned', BACKPRESSURED_SUMS, (out) => [out, '4000', '4000', String(INTERVAL_MS), '0.3', '-1', 'EXACTLY_ONCE']);
    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(4_000));
  });

  it('finishes promptly at least once', async () => {
    const output = await runPromptly('at-least-once', RUNNING_SUMS, (out) => [out, '6000', '3000', String(INTERVAL_MS), 'AT_LEAST_ONCE']);
    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(6_000));
  });
});
