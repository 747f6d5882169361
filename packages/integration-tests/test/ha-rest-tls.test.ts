import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleJobs } from '@weir/examples';
import { HaCluster } from '../src/ha-cluster.ts';
import { httpAnswer, httpStatus, initClusterCredentials, jobIdFrom } from '../src/index.ts';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** Long enough to outlive the test, which cancels the job. */
const EVENTS = 200_000;
const RATE = 500;

/**
 * A standby JobManager forwards REST calls to the leader over HTTPS (checking the leader's
 * certificate against the cluster's CA, showing its node certificate) with the caller's
 * token, and the leader's guard, which knows each job's owner, decides: two JobManagers with
 * etcd, mutual TLS, HTTPS REST and a tokens file, real processes.
 */
describe('REST calls to a standby JobManager of a secured HA cluster', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-ha-rest-tls-'));
  const tokens = { alice: 'weir_alice-submitter-token', bob: 'weir_bob-submitter-token' };
  let cluster: HaCluster;
  let ca: Buffer;

  beforeAll(async () => {
    const sec = join(dir, 'sec');
    const init = await initClusterCredentials(sec);
    appendFileSync(join(sec, 'tokens'), `sha256:${sha256(tokens.alice)} submitter alice\nsha256:${sha256(tokens.bob)} submitter bob\n`);
    ca = init.ca;
    cluster = await HaCluster.start({ jobManagers: 2, taskManagers: 1, slots: 2, config: { ...init.keys, 'state.checkpoints.dir': join(dir, 'checkpoints') } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it("reach the leader over HTTPS with the caller's token: the owner's call is done, another submitter's and one without a token refused", async () => {
    const run = await cluster.weir(['run', '--detached', exampleJobs.runningSums, '--', String(EVENTS), String(RATE), join(dir, 'out')], { env: { WEIR_TOKEN: tokens.alice } });
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    const leader = await cluster.leader();
    const standby = cluster.jobManagers.findIndex((jm) => jm !== leader.process) + 1;
    const at = cluster.restUrl(standby);
    expect(at).toMatch(/^https:/);

    // Without a token the standby's own guard refuses, before anything is forwarded.
    expect(await httpStatus(`${at}/jobs/${jobId}`, { ca })).toBe(401);
    expect(await httpStatus(`${at}/jobs/${jobId}?mode=cancel`, { ca, method: 'PATCH' })).toBe(401);
    // Plain HTTP to the standby's HTTPS port gets no HTTP answer.
    expect(await httpStatus(`${at.replace('https:', 'http:')}/jobs/${jobId}`, { token: tokens.alice })).toBeTypeOf('string');

    // The standby serves no job itself: the details come from the leader, over HTTPS.
    const details = await httpAnswer(`${at}/jobs/${jobId}`, { ca, token: tokens.alice });
    expect(typeof details === 'string' ? details : details.status, cluster.logs()).toBe(200);
    expect(JSON.parse((details as { body: string }).body)).toMatchObject({ jid: jobId, owner: 'token:alice' });

    // bob passes the standby (it knows no owner); the leader's guard knows alice owns the job and refuses.
    const refused = await httpAnswer(`${at}/jobs/${jobId}?mode=cancel`, { ca, token: tokens.bob, method: 'PATCH' });
    expect(refused).toMatchObject({ status: 403 });
    expect(JSON.parse((refused as { body: string }).body).errors[0]).toContain('(this one was submitted by token:alice)');

    const cancelled = await httpAnswer(`${at}/jobs/${jobId}?mode=cancel`, { ca, token: tokens.alice, method: 'PATCH' });
    expect(cancelled).toMatchObject({ status: 202 });
    await expect
      .poll(async () => {
        const answer = await httpAnswer(`${at}/jobs/${jobId}`, { ca, token: tokens.alice });
        return typeof answer === 'string' ? answer : (JSON.parse(answer.body) as { state: string }).state;
      }, { timeout: 60_000, interval: 500 })
      .toBe('CANCELED');
    // The leader did it, and audited who did.
    expect(leader.process.output).toContain(`audit: alice cancel ${jobId}: ok (202)`);
    expect(leader.process.output).toContain(`audit: bob cancel ${jobId}: refused:`);
  });
});
