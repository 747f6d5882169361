import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCommittedLines } from '@weir/examples';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, getJob, jobIdFrom, localPath, ProcessCluster, savepointPathFrom, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { AVRO_TYPES, expectedEvolvedOutput, POJO_TYPES, schemaJobs, type EvolvingType } from './schema-evolution-jobs.ts';
import { cutOf } from './savepoint-jobs.ts';

const RECORDS = 20_000;
/** Slow enough that v1 is still running when it is stopped, whatever the load. */
const V1_RATE = 1_000;
/** The output does not depend on the rate: v2 may finish the rest fast. */
const V2_RATE = 20_000;
const INTERVAL_MS = 200;



describe('state schema evolution across a savepoint on a process cluster', () => {
  let dir: string;
  let c: ProcessCluster;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-schema-'));
    c = await ProcessCluster.start({ taskManagers: 1, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
  });
  afterAll(async () => {
    await c?.stop();
  });

  it.each([
    ['a POJO', POJO_TYPES, "field 'sum' of state 'tally' was NUMBER, now STRING: "],
    ['an Avro record', AVRO_TYPES, `state 'tally' was AVRO<Tally>, now AVRO<Tally>: Avro's resolution rules reject the change (cannot read "long" as "string")`],
  ] as const)('%s: refuses a changed field type with the cluster up and the savepoint kept, then gains a field with its default', async (what, types: EvolvingType, refusal) => {
    const output = join(dir, `out-${what.replaceAll(' ', '-')}`);
    const jobs = schemaJobs(types);
    const args = (rate: number) => ['--', output, String(RECORDS), String(rate), String(INTERVAL_MS)];

    const v1 = await c.weir(['run', '--detached', writeJobFile(jobs.v1), ...args(V1_RATE)]);
    expect(v1.code, v1.stderr).toBe(0);
    const v1Id = jobIdFrom(v1.stdout);
    await waitForStatus(c.client, v1Id, ['RUNNING']);
    await waitForCheckpoints(c.client, v1Id, (cps) => completedCount(cps) >= 2, 30_000);
    const stop = await c.weir(['stop', '--savepointPath', join(dir, 'savepoints'), v1Id]);
    expect(stop.code, `${stop.stdout}\n${stop.stderr}\n${c.logs()}`).toBe(0);
    const savepoint = savepointPathFrom(stop);
    const cut = cutOf(readCommittedLines(output));
    expect(cut.a, 'reader 0 had not seen every key before the stop').toBeGreaterThan(7);
    expect(cut.b, 'reader 1 had not seen every key before the stop').toBeGreaterThan(7);
    expect(cut.a + cut.b, 'v1 ran to the end before the stop').toBeLessThan(RECORDS);

    // The same output as v1: the sink restores v1's committables and finds them committed.
    const bad = await c.weir(['run', '-s', savepoint, writeJobFile(jobs.bad), ...args(V2_RATE)], { timeoutMs: 60_000 });
    expect(bad.code, `${bad.stdout}\n${bad.stderr}`).toBe(1);
    expect(bad.stderr).toContain(refusal);
    // No restart can make the state fit: FAILED at once, without a restart.
    expect(bad.stdout).not.toContain('RESTARTING');
    expect((await getJob(c.client, jobIdFrom(bad.stdout))).attempt).toBe(0);
    expect(existsSync(join(localPath(savepoint), '_metadata'))).toBe(true);
    expect(c.jobManager.running && c.liveTaskManagers.length).toBe(1);

    const v2 = await c.weir(['run', '-s', savepoint, writeJobFile(jobs.v2), ...args(V2_RATE)], { timeoutMs: 60_000 });
    expect(v2.code, `${v2.stdout}\n${v2.stderr}\n${c.logs()}`).toBe(0);
    expect(readCommittedLines(output).sort()).toEqual(expectedEvolvedOutput(RECORDS, cut));
  });
});
