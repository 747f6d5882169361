import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HaCluster, jobIdFrom, logLines, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';

import { setTimeout as sleep } from 'node:timers/promises';

/** Keys below `prefix` in etcd, through its JSON gateway (/v3/kv/range). */
async function etcdKeys(endpoint: string, prefix: string): Promise<string[]> {
  const end = Buffer.from(prefix);
  end[end.length - 1]! += 1;
  const response = await fetch(`${endpoint}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({ key: Buffer.from(prefix).toString('base64'), range_end: end.toString('base64'), keys_only: true }),
  });
  const body = (await response.json()) as { kvs?: { key: string }[] };
  return (body.kvs ?? []).map((kv) => Buffer.from(kv.key, 'base64').toString());
}

function files(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

async function until(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(200);
  }
}

describe('HA data of jobs that ended', () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("goes from storageDir and etcd once the job is globally terminal, a running job's stays, and a failover after does not resurrect the job", async () => {
    const cluster = await HaCluster.start({ jobManagers: 2, taskManagers: 2, slots: 2 });
    cleanups.push(() => cluster.stop());
    const ha = join(cluster.dir, 'ha', 'test');
    const submit = async (records: number, rate: number): Promise<string> => {
      const dir = mkdtempSync(join(tmpdir(), 'weir-ha-cleanup-job-'));
      const run = await cluster.weir(['run', '--detached', writeJobFile(RUNNING_SUMS), '--', join(dir, 'out'), String(records), String(rate), '300', 'EXACTLY_ONCE', join(dir, 'checkpoints')]);
      expect(run.code, run.stderr).toBe(0);
      return jobIdFrom(run.stdout);
    };
    // Both jobs have the same bundle: the running one keeps it.
    const running = await submit(200_000, 500);
    await cluster.waitForStatus(running, ['RUNNING']);
    const finished = await submit(1_000, 2_000);
    await cluster.waitForStatus(finished, ['FINISHED']);
    await until('the finished job is cleaned up', async () => !files(join(ha, 'jobs')).includes(finished) && (await etcdKeys(cluster.etcd.endpoint, `/weir/test/checkpoints/${finished}/`)).length === 0);
    expect(files(join(ha, 'jobs'))).toEqual([running]);
    expect(files(join(ha, 'bundles'))).toHaveLength(1);
    await until('the running job has a checkpoint pointer', async () => (await etcdKeys(cluster.etcd.endpoint, `/weir/test/checkpoints/${running}/completed/`)).length > 0);

    const leader = await cluster.leader();
    leader.process.kill('SIGKILL');
    await leader.process.exited;
    const next = await cluster.leader(30_000);
    await cluster.waitForStatus(running, ['RUNNING'], 60_000);
    const statuses = Object.fromEntries((await cluster.list()).map((j) => [j.jobId, j.status]));
    expect(statuses).toEqual({ [running]: 'RUNNING', [finished]: 'FINISHED' });
    const recovered = logLines(next.process.output).filter((l) => l.msg === 'recovering the job').map((l) => l.fields.jobId);
    expect(recovered).toEqual([running]);

    const cancel = await cluster.weir(['cancel', running]);
    expect(cancel.code, cancel.stderr).toBe(0);
    await cluster.waitForStatus(running, ['CANCELED']);
    await until('the cancelled job is cleaned up', () => files(join(ha, 'jobs')).length === 0 && files(join(ha, 'bundles')).length === 0);
    expect(await etcdKeys(cluster.etcd.endpoint, '/weir/test/checkpoints/')).toEqual([]);
    // The results stay, clean: weir list shows both.
    expect(Object.fromEntries((await cluster.list()).map((j) => [j.jobId, j.status]))).toEqual({ [running]: 'CANCELED', [finished]: 'FINISHED' });
  });
});
