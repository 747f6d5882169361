import { defaultConfig, freePort } from '@weir/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { standbyRestTarget } from '../ha/rest-target.ts';
import { restCluster, SNAPSHOT } from '../testing/rest-cluster.ts';
import { SAVEPOINT_URL } from '../testing/savepoint-cluster.ts';
import { FORWARDED_BY_HEADER, type RestTarget } from './leader-forwarding.ts';
import { advertisedRestUrl } from './rest-url.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A leader's REST app on a real port, recording the requests it gets, and a standby's app that forwards to it. */
async function leaderAndStandby() {
  const leader = restCluster();
  const seen: { method: string; url: string; forwardedBy: string | undefined }[] = [];
  leader.app.addHook('onRequest', async (request) => {
    seen.push({ method: request.method, url: request.url, forwardedBy: request.headers[FORWARDED_BY_HEADER] as string | undefined });
  });
  await leader.app.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => leader.app.close());
  const restUrl = `http://127.0.0.1:${(leader.app.server.address() as { port: number }).port}`;
  let target: RestTarget = { kind: 'leader', address: 'jm-1:6123', restUrl };
  const standby = restCluster({}, { target: () => target, self: 'jm-2:6123', timeoutMs: 2_000 });
  cleanups.push(() => standby.app.close());
  const ask = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: string, headers: Record<string, string> = {}) => {
    const response = await standby.app.inject({ method, url, payload, headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers } });
    return { status: response.statusCode, body: response.json() as Record<string, any>, headers: response.headers };
  };
  return { leader, standby, seen, ask, setTarget: (next: RestTarget) => (target = next) };
}

describe("a standby's REST API", () => {
  it("answers every REST resource with the leader's status, body and content type", async () => {
    const { leader, seen, ask } = await leaderAndStandby();
    // Only the leader has these metrics: the standby's answer can only be the leader's.
    leader.metrics.update('job-1', 'map', 0, { attempt: 0, taskManagerId: 'tm-1', receivedAtMs: 1_000, metrics: SNAPSHOT, operators: [] });
    for (const url of ['/overview', '/jobs/overview', '/jobs/job-1', '/jobs/job-1/checkpoints', '/taskmanagers', '/taskmanagers/tm-1']) {
      const direct = await leader.get(url);
      const forwarded = await ask('GET', url);
      expect(forwarded, url).toEqual({ status: 200, body: direct.body, headers: expect.objectContaining({ 'content-type': direct.headers['content-type'] }) });
    }
    expect((await ask('GET', '/jobs/job-1')).body.vertices.find((v: { id: string }) => v.id === 'map').metrics['read-records']).toBe(100);
    expect(seen.every((request) => request.forwardedBy === 'jm-2:6123' || request.forwardedBy === undefined)).toBe(true);
    expect(seen.filter((request) => request.forwardedBy === 'jm-2:6123')).toHaveLength(7);
  });

  it("forwards a savepoint trigger to the leader, whose request ID the standby's GET follows to COMPLETED", async () => {
    const { leader, standby, ask } = await leaderAndStandby();
    const post = await ask('POST', '/jobs/job-1/savepoints', '{}');
    expect(post.status).toBe(202);
    await vi.waitFor(() => expect(leader.triggerOptions()).not.toEqual([]));
    expect(standby.triggerOptions()).toEqual([]);
    const status = `/jobs/job-1/savepoints/${post.body['request-id']}`;
    expect((await ask('GET', status)).body).toEqual({ status: { id: 'IN_PROGRESS' } });
    await leader.ackSavepoint(1);
    await vi.waitFor(async () => expect((await ask('GET', status)).body).toEqual({ status: { id: 'COMPLETED' }, operation: { location: SAVEPOINT_URL, checkpointId: 1 } }));
  });

  it("passes the leader's errors on as they are: 404, 400 for a body it refuses, 405 with Allow", async () => {
    const { ask } = await leaderAndStandby();
    const unknownJob = await ask('GET', '/jobs/0123456789abcdef0123456789abcdef');
    expect(unknownJob.status).toBe(404);
    expect(unknownJob.body.code).toBe('JOB_NOT_FOUND');
    const badBody = await ask('POST', '/jobs/job-1/savepoints', '{');
    expect(badBody).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    const wrongMethod = await ask('DELETE', '/overview');
    expect(wrongMethod).toMatchObject({ status: 405, body: { code: 'METHOD_NOT_ALLOWED' }, headers: { allow: 'GET, HEAD' } });
  });

  it('answers /config and unknown paths itself: they describe this process, not the cluster', async () => {
    const { standby, seen, ask, setTarget } = await leaderAndStandby();
    setTarget({ kind: 'none', why: 'no leader' });
    expect((await ask('GET', '/config')).status).toBe(200);
    expect((await ask('GET', '/no-such-thing')).body.code).toBe('NOT_FOUND');
    const page = await standby.app.inject({ method: 'GET', url: '/' });
    expect([page.statusCode, page.headers['content-type']]).toEqual([200, 'text/html']);
    expect(seen).toEqual([]);
  });

  it('answers 503 NO_LEADER while no leader is known, for reads and triggers alike', async () => {
    const { seen, ask, setTarget } = await leaderAndStandby();
    setTarget(standbyRestTarget(undefined, 'jm-2:6123'));
    for (const [method, url] of [
      ['GET', '/overview'],
      ['POST', '/jobs/job-1/stop'],
    ] as const) {
      const answer = await ask(method, url, method === 'POST' ? '{}' : undefined);
      expect(answer.status, url).toBe(503);
      expect(answer.body).toEqual({ code: 'NO_LEADER', errors: [expect.stringContaining('service temporarily unavailable due to an ongoing leader election')] });
    }
    expect(seen).toEqual([]);
  });

  it('answers 503 LEADER_UNREACHABLE naming the leader when its REST API does not answer', async () => {
    const { ask, setTarget } = await leaderAndStandby();
    const port = await freePort();
    setTarget({ kind: 'leader', address: 'jm-1:6123', restUrl: `http://127.0.0.1:${port}` });
    const answer = await ask('GET', '/jobs/overview');
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('LEADER_UNREACHABLE');
    expect(answer.body.errors[0]).toContain(`the leading JobManager jm-1:6123 did not answer at http://127.0.0.1:${port} (connect ECONNREFUSED`);
  });

  it('never forwards a forwarded request again: two standbys that each think the other leads answer 503', async () => {
    const { seen, ask } = await leaderAndStandby();
    const answer = await ask('GET', '/overview', undefined, { [FORWARDED_BY_HEADER]: 'jm-3:6123' });
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('NO_LEADER');
    expect(answer.body.errors[0]).toContain('the JobManager at jm-3:6123 forwarded this request here');
    expect(seen).toEqual([]);
  });
});

describe('standbyRestTarget', () => {
  const leader = { address: 'jm-1:6123', epoch: 3, restUrl: 'http://jm-1:8081' };

  it("is the leader's REST API when etcd names another JobManager that published one", () => {
    expect(standbyRestTarget(leader, 'jm-2:6123')).toEqual({ kind: 'leader', address: 'jm-1:6123', restUrl: 'http://jm-1:8081' });
  });

  it('is none, saying why, without a leader, with a record naming this JobManager, or without a REST URL', () => {
    expect(standbyRestTarget(undefined, 'jm-2:6123')).toMatchObject({ kind: 'none', why: expect.stringContaining('ongoing leader election') });
    expect(standbyRestTarget(leader, 'jm-1:6123')).toMatchObject({ kind: 'none', why: expect.stringContaining('this JobManager, jm-1:6123, is taking over') });
    expect(standbyRestTarget({ address: 'jm-1:6123', epoch: 3 }, 'jm-2:6123')).toMatchObject({ kind: 'none', why: expect.stringContaining('does not publish its REST API') });
  });
});

describe('advertisedRestUrl', () => {
  it('is rest.address, else jobmanager.rpc.address (never the 0.0.0.0 bind address), with the bound port', () => {
    const config = defaultConfig();
    expect(advertisedRestUrl(config, 8081)).toBe('http://localhost:8081');
    expect(advertisedRestUrl({ ...config, 'jobmanager.rpc.address': 'jm-1' }, 40_000)).toBe('http://jm-1:40000');
    expect(advertisedRestUrl({ ...config, 'jobmanager.rpc.address': 'jm-1', 'rest.address': 'web.example' }, 8081)).toBe('http://web.example:8081');
    expect(advertisedRestUrl({ ...config, 'rest.address': 'fd00::7' }, 8081)).toBe('http://[fd00::7]:8081');
  });
});
