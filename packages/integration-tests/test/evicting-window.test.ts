import { afterEach, describe, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessCluster } from '../src/index.ts';
import { expectExactlyOnceUnderKills } from './chaos.ts';
import { EVICTING_WINDOWS, expectedRemaining } from './evicting-window-jobs.ts';

const RECORDS = 20_000;
const RATE = 2_000;

/**
 * A window with an evictor and a continuous event-time trigger, exactly-once under failure:
 * p=2 windows on two TaskManagers that are SIGKILLed at random. The evicting window's
 * elements, the trigger's fire times and their timers are restored from the checkpoints; the
 * committed output must be exactly what a run without failure commits: every firing of every
 * key's window once, with the elements the evictor left.
 */
describe('exactly-once evicting windows with a continuous trigger under SIGKILLed TaskManagers', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('commits every firing once, with what TimeEvictor left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-evicting-eo-'));
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2 });
    cleanups.push(() => cluster.stop());
    const output = join(dir, 'out');
    const args = [output, String(RECORDS), String(RATE), '400', join(dir, 'checkpoints')];
    await expectExactlyOnceUnderKills(cluster, EVICTING_WINDOWS, args, output, expectedRemaining(RECORDS));
  });
});
