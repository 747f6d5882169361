import { afterEach, describe, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessCluster } from '../src/index.ts';
import { expectExactlyOnceUnderKills } from './chaos.ts';
import { expectedWindowedCounts, WINDOWED_COUNTS } from './window-jobs.ts';

const RECORDS = 16_000;
const RATE = 2_000;

/**
 * Event-time windows exactly-once under failure: tumbling counts and session windows over an
 * out-of-order, rate-limited generator, p=2 on two TaskManagers that are SIGKILLed at random.
 * Window contents and timers are restored from the checkpoints; the committed output must be
 * exactly what a run without failure commits: every window and session once, with its count.
 */
describe('exactly-once event-time windows under SIGKILLed TaskManagers', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.each([
    ['heap state', 'heap'],
    ['LevelDB with incremental checkpoints', 'level-incremental'],
  ])('fires every tumbling window and session once, with the right count: %s', async (_name, backend) => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-window-eo-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.backend.rocksdb.localdir': join(dir, 'local') } });
    cleanups.push(() => cluster.stop());
    const output = join(dir, 'out');
    const args = [output, String(RECORDS), String(RATE), '400', backend, join(dir, 'checkpoints')];
    await expectExactlyOnceUnderKills(cluster, WINDOWED_COUNTS, args, output, expectedWindowedCounts(RECORDS));
  });
});
