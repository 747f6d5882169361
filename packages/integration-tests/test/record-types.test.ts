import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommittedLines } from '@weir/examples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJob, jobIdFrom, ProcessCluster, writeJobFile } from '../src/index.ts';
import { RECORDS, REFUSED_JOB, TYPES_JOB } from './record-types-jobs.ts';

/** The first line the user sees, with the TaskManager it failed on (either) as tm-N. */
function firstLine(stderr: string): string {
  return stderr.split('\n')[0]!.replace(/TaskManager tm-\d/, 'TaskManager tm-N');
}

/**
 * Issue 12 item 2 on a process cluster: records keep their types through a keyBy, over local
 * and remote channels, with object reuse off and on, or the job fails at the first record
 * with the field and what to do, and the cluster goes on serving.
 */
describe('records between TaskManagers keep their types or are refused', () => {
  let cluster: ProcessCluster;

  beforeAll(async () => {
    cluster = await ProcessCluster.start({ taskManagers: 2, slots: 1 });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  async function runTypes(declared: 'declared' | 'undeclared', reuse: 'reuse' | 'copy'): Promise<void> {
    const output = join(mkdtempSync(join(tmpdir(), 'weir-types-')), 'out');
    const run = await cluster.weir(['run', writeJobFile(TYPES_JOB), '--', declared, reuse, output]);
    expect(run.stderr, cluster.logs()).toBe('');
    expect(run.code).toBe(0);
    const lines = readCommittedLines(output);
    expect(lines).toHaveLength(RECORDS);
    expect(new Set(lines)).toEqual(new Set(Array.from({ length: RECORDS }, (_, i) => `ok ${i}`)));
  }

  for (const reuse of ['copy', 'reuse'] as const) {
    it(`keeps Map (object keys too), Set, Uint8Array apart from Buffer, Date, BigInt over 64 bits, -0, holes and prototype-less objects (object reuse ${reuse === 'reuse' ? 'on' : 'off'})`, async () => {
      await runTypes('undeclared', reuse);
    });

    it(`gives records declared with Types.POJO(Point, ...) their class and methods (object reuse ${reuse === 'reuse' ? 'on' : 'off'})`, async () => {
      await runTypes('declared', reuse);
    });
  }

  it('fails a job emitting a class instance at the first record, saying which field and what to do, and keeps serving', async () => {
    const run = await cluster.weir(['run', writeJobFile(REFUSED_JOB), '--', 'class']);
    expect(run.code).not.toBe(0);
    const jobId = jobIdFrom(run.stdout);
    expect(firstLine(run.stderr)).toBe(
      `error: job ${jobId} failed: numbers -> Locate (1/1) failed on TaskManager tm-N: Locate (1/1) failed: cannot send a record to 'Near' unchanged: field 'at' is an instance of class Point; ` +
        "it would arrive as a plain object, without its class and methods; declare the stream's type so the class is registered and kept: " +
        '.returns(Types.POJO(Point, { ...its fields })), or Types.CUSTOM({ name, version, serialize, deserialize }) to convert it yourself, or emit plain objects',
    );
    const details = await getJob(cluster.client, jobId);
    expect(details.summary!.status).toBe('FAILED');
    await runTypes('undeclared', 'copy');
  });

  it('fails a job emitting a function, naming the field', async () => {
    const run = await cluster.weir(['run', writeJobFile(REFUSED_JOB), '--', 'function']);
    expect(run.code).not.toBe(0);
    expect(firstLine(run.stderr)).toBe(
      `error: job ${jobIdFrom(run.stdout)} failed: numbers -> Locate (1/1) failed on TaskManager tm-N: Locate (1/1) failed: cannot send a record to 'Near' unchanged: field 'format' is a function (format); functions cannot be sent between tasks; emit data`,
    );
  });
});
