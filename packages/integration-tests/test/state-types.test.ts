import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommittedLines } from '@weir/examples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedCount, jobIdFrom, ProcessCluster, savepointPathFrom, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { STATE_RECORDS, STATE_TYPES_JOB } from './state-types-jobs.ts';

/**
 * State keeps what records keep: a Map in a ValueState came back from a savepoint as a plain
 * object (and on LevelDB as soon as it was read back), a Set as an array, -0 as 0, and an
 * operator list entry lost them too, also when the JobManager re-dealt it on a rescale.
 */
describe('state values keep their types through a savepoint and a rescale', () => {
  let cluster: ProcessCluster;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-state-types-'));
    cluster = await ProcessCluster.start({ taskManagers: 2, slots: 3, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  for (const backend of ['heap', 'level'] as const) {
    it(`keeps Map, Set, Uint8Array and Buffer, Date, BigInt, -0, holes and prototype-less objects in keyed and operator state (${backend}, p=2 -> 3)`, async () => {
      const job = writeJobFile(STATE_TYPES_JOB);
      const checkpoints = join(dir, 'checkpoints', backend);
      const write = await cluster.weir(['run', '--detached', '-p', '2', job, '--', 'write', backend, checkpoints, join(dir, `${backend}-write`)]);
      expect(write.code, `${write.stderr}\n${cluster.logs()}`).toBe(0);
      const jobId = jobIdFrom(write.stdout);
      await waitForStatus(cluster.client, jobId, ['RUNNING']);
      // Two completed checkpoints: every record has gone through (the source is quiet after them).
      await waitForCheckpoints(cluster.client, jobId, (cps) => completedCount(cps) >= 2, 60_000);
      const stop = await cluster.weir(['stop', '--savepointPath', join(dir, 'savepoints'), jobId]);
      expect(stop.code, `${stop.stderr}\n${cluster.logs()}`).toBe(0);

      const output = join(dir, `${backend}-check`);
      const check = await cluster.weir(['run', '-p', '3', '-s', savepointPathFrom(stop), '-n', job, '--', 'check', backend, checkpoints, output], { timeoutMs: 120_000 });
      expect(check.stderr, cluster.logs()).toBe('');
      expect(check.code).toBe(0);
      const expected = ['value', 'map', 'list'].flatMap((kind) => Array.from({ length: STATE_RECORDS }, (_, i) => `${kind} ${i}`));
      expect(readCommittedLines(output).sort()).toEqual(expected.sort());
    });
  }
});
