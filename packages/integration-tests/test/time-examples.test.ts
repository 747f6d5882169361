import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffLines, exampleJobs, expectedAlerts, expectedWindowedCounts, readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessCluster } from '../src/index.ts';

/**
 * The event-time examples, run as the demo runs its jobs: `weir run` against a cluster of a
 * JobManager and two TaskManagers, then the committed output compared with the verifier's.
 */
describe('the fraud-detection and windowed word-count examples on a process cluster', () => {
  let cluster: ProcessCluster;

  beforeAll(async () => {
    cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(mkdtempSync(join(tmpdir(), 'weir-time-')), 'checkpoints') } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  function expectExactly(committed: string[], expected: string[]): void {
    const { missing, extra } = diffLines(committed.sort(), expected);
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10) }, cluster.logs()).toEqual({ missing: [], extra: [] });
  }

  it('raises exactly the alerts of the walkthrough\'s rule: a small transaction followed by a large one', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'weir-fraud-')), 'alerts');
    const run = await cluster.weir(['run', exampleJobs.fraudDetection, '--', '6000', '3000', output]);
    expect(run.code, run.stdout + run.stderr + cluster.logs()).toBe(0);
    const expected = expectedAlerts(6_000);
    expect(expected.length).toBeGreaterThan(50);
    expectExactly(readCommittedLines(output), expected);
  });

  it('counts each 5 s window of out-of-order words once, and sends the minute-late stragglers to the side output', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'weir-wwc-')), 'counts');
    const run = await cluster.weir(['run', exampleJobs.windowedWordCount, '--', '8000', '3000', output]);
    expect(run.code, run.stdout + run.stderr + cluster.logs()).toBe(0);
    const expected = expectedWindowedCounts(8_000);
    expect(expected.filter((l) => l.startsWith('late '))).toHaveLength(6);
    expectExactly(readCommittedLines(output), expected);
  });
});
