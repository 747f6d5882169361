import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCommittedLines } from '@weir/examples';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getJob, jobIdFrom, ProcessCluster, runWeir, waitForStatus, writeJobFile } from '../src/index.ts';
import { ENDLESS, NO_DEFAULT_EXPORT, THROWING, TOO_WIDE, WORD_COUNT } from './jobs.ts';

const TEXT = [
  'The quick brown fox jumps over the lazy dog',
  "the dog didn't care; the fox did",
  '',
  'Über alles: the end',
  ...Array.from({ length: 500 }, (_, i) => `line ${i % 7} of the text ${i % 13}`),
].join('\n');

function expectedCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    for (const w of line.toLowerCase().split(/[^a-z']+/)) if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return counts;
}

describe('a process cluster of one JobManager and two TaskManagers', () => {
  let cluster: ProcessCluster;

  beforeAll(async () => {
    cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'slot.request.timeout': 4_000 } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('counts the words of a known text exactly, at parallelism 2 on both TaskManagers', async () => {
    const work = mkdtempSync(join(tmpdir(), 'weir-wc-'));
    const input = join(work, 'input.txt');
    const output = join(work, 'out');
    writeFileSync(input, TEXT);
    const job = writeJobFile(WORD_COUNT);

    const run = await cluster.weir(['run', job, '--', input, output]);
    expect(run.code, run.stdout + run.stderr + cluster.logs()).toBe(0);
    const jobId = jobIdFrom(run.stdout);

    const finalCounts = new Map<string, number>();
    for (const line of readCommittedLines(output)) {
      const [word, count] = line.split(' ');
      finalCounts.set(word!, Math.max(finalCounts.get(word!) ?? 0, Number(count)));
    }
    expect(finalCounts).toEqual(expectedCounts(TEXT));

    const details = await getJob(cluster.client, jobId);
    expect(details.summary!.status).toBe('FINISHED');
    expect(details.vertices).toHaveLength(2);
    const where = new Set(details.vertices.flatMap((v) => v.subtasks.map((s) => s.taskManagerId)));
    expect(where).toEqual(new Set(['tm-1', 'tm-2']));

    const info = await cluster.weir(['info', jobId]);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain('FINISHED');
    expect(info.stdout).toContain('lines');
  });

  it('cancels a running job', async () => {
    const run = await cluster.weir(['run', '--detached', writeJobFile(ENDLESS)]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);

    const cancel = await cluster.weir(['cancel', jobId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    const details = await waitForStatus(cluster.client, jobId, ['CANCELED']);
    expect(details.vertices.flatMap((v) => v.subtasks.map((s) => s.state))).toEqual(
      details.vertices.flatMap((v) => v.subtasks.map(() => 'CANCELED')),
    );

    const list = await cluster.weir(['list']);
    expect(list.stdout).toMatch(new RegExp(`${jobId}.*CANCELED`));
  });

  it('fails a job whose map throws, with the error in run and in info', async () => {
    const run = await cluster.weir(['run', writeJobFile(THROWING)]);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('boom at record 4242');
    const jobId = jobIdFrom(run.stdout);

    const details = await getJob(cluster.client, jobId);
    expect(details.summary!.status).toBe('FAILED');
    expect(details.failureCause).toContain('boom at record 4242');
    expect(details.failureCause).toContain('fragile map');
    const info = await cluster.weir(['info', jobId]);
    expect(info.stdout).toContain('boom at record 4242');
  });

  it('fails a job that needs more slots than the cluster has, saying how many', async () => {
    const run = await cluster.weir(['run', writeJobFile(TOO_WIDE)]);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toMatch(/needs 5 slots.*4 free of 4/s);
  });

  it('rejects a module without a default export and a malformed bundle, and keeps serving', async () => {
    const noDefault = await cluster.weir(['run', writeJobFile(NO_DEFAULT_EXPORT)]);
    expect(noDefault.code).not.toBe(0);
    expect(noDefault.stderr).toContain('has no default export');

    const malformed = await new Promise<{ code?: string; message: string }>((resolve) => {
      cluster.client.submitJob({ bundle: Buffer.from('exports.default = function (env) {'), entryName: 'broken.js', args: [], parallelism: 0 }, (err) =>
        resolve({ code: err?.metadata.get('weir-error-code')[0] as string | undefined, message: err?.details ?? '' }),
      );
    });
    expect(malformed.code).toBe('INVALID_JOB');
    expect(malformed.message).toContain('broken.js is not valid JavaScript');

    const list = await cluster.weir(['list']);
    expect(list.code, list.stderr).toBe(0);
  });

  it('refuses to start a JobManager on a port already taken, or with an unknown config key', async () => {
    const port = cluster.jobManagerAddress.split(':')[1]!;
    // Loopback binds: a non-loopback one without security would be refused before the port is tried.
    const taken = await runWeir(['jobmanager', '-D', 'jobmanager.bind-host=127.0.0.1', '-D', 'rest.bind-address=127.0.0.1', '-D', `jobmanager.rpc.port=${port}`, '-D', `blob.storage.directory=${cluster.dir}/blobs2`], { timeoutMs: 30_000 });
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain(`port ${port} is already in use`);

    const unknown = await runWeir(['jobmanager', '-D', 'heartbeat.timeuot=1000'], { timeoutMs: 30_000 });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('heartbeat.timeuot');
    expect(unknown.stderr).toContain('heartbeat.timeout');

    const list = await cluster.weir(['list']);
    expect(list.code, list.stderr).toBe(0);
  });
});
