import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffLines, expectedRunningSums, readCommittedLines } from '@weir/examples';
import { freePort } from '@weir/common';
import { startEtcd } from '@weir/ha/testing';
import { HaCluster, jobIdFrom, logLines, runWeir, WeirProcess, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';

import { setTimeout as sleep } from 'node:timers/promises';

describe('JobManager HA on one host', () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function submit(cluster: HaCluster, records: number, rate: number): Promise<{ jobId: string; output: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'weir-ha-job-'));
    const output = join(dir, 'out');
    const run = await cluster.weir(['run', '--detached', writeJobFile(RUNNING_SUMS), '--', output, String(records), String(rate), '500', 'EXACTLY_ONCE', join(dir, 'checkpoints')]);
    expect(run.code, run.stderr).toBe(0);
    return { jobId: jobIdFrom(run.stdout), output };
  }

  function expectExact(output: string, records: number, context: string): void {
    const { missing, extra } = diffLines(readCommittedLines(output).sort(), expectedRunningSums(records));
    expect({ missing: missing.length, extra: extra.length }, context).toEqual({ missing: 0, extra: 0 });
  }

  it('a single JobManager restarted with the same HA config resumes its running job; finished and cancelled ones stay so, and weir list shows the same', async () => {
    const cluster = await HaCluster.start({ jobManagers: 1, taskManagers: 2, slots: 1 });
    cleanups.push(() => cluster.stop());
    const records = 9_000;
    const finished = await submit(cluster, 1_000, 2_000);
    await cluster.waitForStatus(finished.jobId, ['FINISHED']);
    const cancelled = await submit(cluster, 100_000, 1_000);
    await cluster.waitForStatus(cancelled.jobId, ['RUNNING']);
    const cancel = await cluster.weir(['cancel', cancelled.jobId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    await cluster.waitForStatus(cancelled.jobId, ['CANCELED']);
    const { jobId, output } = await submit(cluster, records, 1_500);
    const jm = cluster.jobManagers[0]!;
    await waitForHistory(cluster, jobId, (h) => h.some((c) => c.status === 'COMPLETED'));
    const before = (await cluster.list()).map((j) => `${j.jobId} ${j.name} ${j.startTimeMs}`);
    jm.kill('SIGKILL');
    await jm.exited;
    cluster.startJobManager(1);
    const resumed = await cluster.waitForStatus(jobId, ['RUNNING', 'FINISHED'], 60_000);
    expect(resumed.attempt).toBeGreaterThanOrEqual(1);
    expect((await cluster.list()).map((j) => `${j.jobId} ${j.name} ${j.startTimeMs}`)).toEqual(before);
    const end = await cluster.waitForStatus(jobId, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(end.summary!.status, `${end.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    expectExact(output, records, cluster.logs());
    expect((await cluster.list()).map((j) => j.status)).toEqual(['FINISHED', 'CANCELED', 'FINISHED']);
    const recovered = logLines(cluster.jobManagers[0]!.output).filter((l) => l.msg === 'recovering the job').map((l) => l.fields.jobId);
    expect(recovered).toEqual([jobId]);
    // Checkpoint IDs went on above those of the first JobManager process, never reused.
    const history = await cluster.checkpoints(jobId);
    expect(history.restoredFrom).toBeGreaterThan(0);
    expect(Math.min(...history.checkpoints.map((c) => Number(c.checkpointId)))).toBeGreaterThan(Number(history.restoredFrom));
  });

  it("keeps jobs running while etcd is down: checkpoints that cannot be registered fail, later ones complete, a takeover after loses nothing; every JobManager's REST API shows the leader's cluster", async () => {
    // A 15 s lease renewed every 5 s outlives any outage up to 7 s (four fifths of the TTL less one renew interval).
    const cluster = await HaCluster.start({ jobManagers: 2, taskManagers: 2, slots: 1, leaseTtlMs: 15_000 });
    cleanups.push(() => cluster.stop());
    const records = 24_000;
    const { jobId, output } = await submit(cluster, records, 1_500);
    const leader = await cluster.leader();
    const leaderIndex = cluster.jobManagers.indexOf(leader.process) + 1;
    const standbyIndex = 3 - leaderIndex;
    await waitForHistory(cluster, jobId, (h) => h.some((c) => c.status === 'COMPLETED'));
    // The standby's REST API answers from the leader's: the same jobs, and the same leader named.
    const jobsOf = async (index: number) => ((await cluster.rest(index, '/jobs/overview')).body.jobs as { jid: string; name: string; state: string }[]).map((j) => `${j.jid} ${j.name} ${j.state}`);
    expect(await jobsOf(leaderIndex)).toEqual([expect.stringMatching(new RegExp(`^${jobId} .+ RUNNING$`))]);
    expect(await jobsOf(standbyIndex)).toEqual(await jobsOf(leaderIndex));
    expect((await cluster.rest(standbyIndex, '/overview')).body.leader).toMatchObject({ address: leader.address, epoch: leader.epoch });
    await cluster.etcd.kill();
    await sleep(4_000);
    await cluster.etcd.restart();
    const history = await waitForHistory(cluster, jobId, (h) => h.some((c) => c.status === 'FAILED' && c.failureReason.startsWith('CHECKPOINT_HA_UNAVAILABLE')) && h[0]!.status === 'COMPLETED');
    const during = await cluster.job(jobId);
    expect(during.attempt, 'the job was restarted while etcd was down').toBe(0);
    expect((await cluster.leader()).epoch, 'the leader changed while etcd was down').toBe(leader.epoch);
    // The completed checkpoints are in etcd: the standby takes over from them.
    await sleep(1_000);
    leader.process.kill('SIGKILL');
    // The survivor's REST API never shows an empty cluster: 503 while the dead leader's record lasts
    // (LEADER_UNREACHABLE), between leaders and while taking over (NO_LEADER), then the job.
    const answers = new Set<string>();
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
      const { status, body } = await cluster.rest(standbyIndex, '/jobs/overview');
      answers.add(status === 200 ? `200 ${(body.jobs as { jid: string }[]).map((j) => j.jid).join()}` : `${status} ${body.code}`);
      if (status === 200) break;
    }
    expect([...answers].filter((a) => !['503 LEADER_UNREACHABLE', '503 NO_LEADER'].includes(a))).toEqual([`200 ${jobId}`]);
    // The killed JobManager, restarted, stands by and shows the new leader's cluster.
    await cluster.startJobManager(leaderIndex).waitForOutput(/JobManager listening/);
    const ids = async (index: number) => ((await cluster.rest(index, '/jobs/overview')).body.jobs as { jid: string }[]).map((j) => j.jid);
    expect(await ids(leaderIndex)).toEqual([jobId]);
    expect((await cluster.rest(leaderIndex, '/overview')).body.leader.address).toBe(cluster.address(standbyIndex));
    const end = await cluster.waitForStatus(jobId, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(end.summary!.status, `${end.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    expect(end.attempt).toBeGreaterThanOrEqual(1);
    expectExact(output, records, `${JSON.stringify(history.slice(0, 8))}\n${cluster.logs()}`);
  });

  it('refuses bad HA input at start with a message: etcd unreachable, a cluster-id in use by another cluster, a storageDir that cannot be written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-ha-bad-'));
    const etcd = await startEtcd();
    cleanups.push(() => etcd.remove());
    // Loopback binds: a non-loopback one without security would be refused before etcd is tried.
    const base = ['-D', 'high-availability.type=etcd', '-D', 'jobmanager.rpc.address=127.0.0.1', '-D', 'rest.port=0', '-D', 'jobmanager.bind-host=127.0.0.1', '-D', 'rest.bind-address=127.0.0.1'];
    const start = (name: string, extra: Record<string, string | number>) =>
      new WeirProcess(name, ['jobmanager', ...base, ...Object.entries(extra).flatMap(([k, v]) => ['-D', `${k}=${v}`])], join(dir, `${name}.log`));
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, 'not a directory');
    const first = start('first', { 'high-availability.etcd.endpoints': etcd.endpoint, 'high-availability.storageDir': join(dir, 'ha-a'), 'high-availability.cluster-id': 'shared', 'jobmanager.rpc.port': await freePort(), 'blob.storage.directory': join(dir, 'b1') });
    cleanups.push(() => first.stop());
    await first.waitForOutput(/elected leader/);
    const unreachable = start('unreachable', { 'high-availability.etcd.endpoints': nowhere, 'high-availability.storageDir': join(dir, 'ha-b'), 'jobmanager.rpc.port': await freePort(), 'blob.storage.directory': join(dir, 'b2') });
    const sameId = start('same-id', { 'high-availability.etcd.endpoints': etcd.endpoint, 'high-availability.storageDir': join(dir, 'ha-c'), 'high-availability.cluster-id': 'shared', 'jobmanager.rpc.port': await freePort(), 'blob.storage.directory': join(dir, 'b3') });
    const notWritable = start('not-writable', { 'high-availability.etcd.endpoints': etcd.endpoint, 'high-availability.storageDir': join(blocked, 'ha'), 'high-availability.cluster-id': 'other', 'jobmanager.rpc.port': await freePort(), 'blob.storage.directory': join(dir, 'b4') });
    const taskManager = new WeirProcess('tm', ['taskmanager', '-D', 'taskmanager.bind-host=127.0.0.1', '-D', 'high-availability.type=etcd', '-D', `high-availability.etcd.endpoints=${nowhere}`], join(dir, 'tm.log'));
    const codes = await Promise.all([unreachable.exited, sameId.exited, notWritable.exited, taskManager.exited]);
    expect(codes).toEqual([1, 1, 1, 1]);
    expect(unreachable.output).toContain(`error: cannot reach etcd at ${nowhere} (high-availability.etcd.endpoints) within 10000 ms`);
    expect(taskManager.output).toContain(`error: cannot reach etcd at ${nowhere} (high-availability.etcd.endpoints)`);
    expect(sameId.output).toContain(`error: high-availability.cluster-id 'shared' is already used on this etcd by a cluster with high-availability.storageDir ${join(dir, 'ha-a')}, not ${join(dir, 'ha-c')}`);
    expect(notWritable.output).toContain(`error: high-availability.storageDir ${join(blocked, 'ha')}`);
    expect(notWritable.output).toContain('is not writable');
    // The cluster that had the ID first still serves.
    const list = await runWeir(['list', '-D', 'high-availability.type=etcd', '-D', `high-availability.etcd.endpoints=${etcd.endpoint}`, '-D', 'high-availability.cluster-id=shared']);
    expect(list.code, list.stderr).toBe(0);
  });
});

async function waitForHistory(
  cluster: HaCluster,
  jobId: string,
  predicate: (checkpoints: { status: string; failureReason: string; checkpointId: number | string }[]) => boolean,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { checkpoints } = await cluster.checkpoints(jobId);
    if (predicate(checkpoints)) return checkpoints;
    if (Date.now() > deadline) throw new Error(`checkpoint history never met the condition: ${JSON.stringify(checkpoints.slice(0, 8))}\n${cluster.logs()}`);
    await sleep(200);
  }
}
