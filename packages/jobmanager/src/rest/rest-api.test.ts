import { readFileSync } from 'node:fs';
import { JobStatus, TaskState } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { SAVEPOINT_URL } from '../testing/savepoint-cluster.ts';
import { settle } from '../testing/checkpointing-cluster.ts';
import { restCluster, SNAPSHOT } from '../testing/rest-cluster.ts';


const PROCESS = {
  heapUsedBytes: 10_000_000,
  heapTotalBytes: 20_000_000,
  heapMaxBytes: 2_000_000_000,
  rssBytes: 50_000_000,
  externalBytes: 1_000,
  gcCount: 7,
  gcTimeMs: 12.4,
  eventLoopDelayMeanMs: 1.2,
  eventLoopDelayP99Ms: 3.5,
  eventLoopDelayMaxMs: 9,
  cpuUserMs: 500,
  cpuSystemMs: 100,
  uptimeMs: 60_000,
};

describe('REST API', () => {
  it('GET /overview counts TaskManagers, slots and jobs and names the leader', async () => {
    const c = restCluster();
    const { status, body } = await c.get('/overview');
    expect(status).toBe(200);
    expect(body).toMatchObject({ taskmanagers: 2, 'slots-total': 4, 'slots-available': 1, 'jobs-running': 1, 'jobs-finished': 0, 'jobs-cancelled': 0, 'jobs-failed': 0 });
    // The JobManager answering leads: a user behind a Service spanning every JobManager sees which.
    expect(body.leader).toEqual({ address: 'jm-1:6123', 'rest-url': 'http://jm-1:8081', epoch: 7 });
  });

  it('GET /config gives the dashboard its refresh interval', async () => {
    const { body } = await restCluster().get('/config');
    expect(body).toMatchObject({ 'refresh-interval': 1_000, 'weir-version': '0.1.0' });
  });

  it('GET /auth/whoami names the anonymous admin without authentication, so the dashboard opens without a login', async () => {
    const { status, body } = await restCluster().get('/auth/whoami');
    expect([status, body]).toEqual([200, { authentication: false, name: 'anonymous', role: 'admin', via: 'anonymous', principal: 'anonymous:anonymous' }]);
  });

  it('GET /jobmanager/config lists the configuration as Flink does, with secrets masked', async () => {
    const { status, body } = await restCluster().get('/jobmanager/config');
    expect(status).toBe(200);
    const entries = body as unknown as { key: string; value: string }[];
    expect(entries).toContainEqual({ key: 's3.secret-key', value: '******' });
    expect(entries).toContainEqual({ key: 's3.access-key', value: '******' });
    expect(entries).toContainEqual({ key: 'rest.bind-address', value: '127.0.0.1' });
    expect(JSON.stringify(entries)).not.toMatch(/hunter2|AKIA-ACCESS/);
  });

  it('GET /jobs and /jobs/overview list the job with its task counts', async () => {
    const c = restCluster();
    expect((await c.get('/jobs')).body).toEqual({ jobs: [{ id: 'job-1', status: 'RUNNING' }] });
    const overview = (await c.get('/jobs/overview')).body.jobs[0];
    expect(overview).toMatchObject({ jid: 'job-1', name: 'test job', state: 'RUNNING', 'end-time': -1, 'start-time': 1_000 });
    expect(overview.tasks).toMatchObject({ total: 6, running: 6, created: 0 });
  });

  it('GET /jobs/:id gives vertices with parallelism, status, records and back pressure, and the plan', async () => {
    const c = restCluster();
    c.metrics.update('job-1', 'map', 0, { attempt: 0, taskManagerId: 'tm-1', receivedAtMs: 1_000, metrics: SNAPSHOT, operators: [] });
    c.metrics.update('job-1', 'map', 1, { attempt: 0, taskManagerId: 'tm-2', receivedAtMs: 1_000, metrics: { ...SNAPSHOT, backPressuredTimeMsPerSecond: 50, currentInputWatermark: 4_000 }, operators: [] });
    const { body } = await c.get('/jobs/job-1');
    expect(body).toMatchObject({ jid: 'job-1', state: 'RUNNING', isStoppable: true, attempt: 0, owner: null });
    expect(body.timestamps.CREATED).toBe(1_000);
    expect(body.timestamps.RUNNING).toBe(1_000);
    expect(body.timestamps.FAILED).toBe(0);
    const map = body.vertices.find((v: { id: string }) => v.id === 'map');
    expect(map).toMatchObject({ name: 'V-map', parallelism: 3, status: 'RUNNING', tasks: { running: 3, total: 3 } });
    // Two of the three subtasks reported: the sums are not complete yet.
    expect(map.metrics).toMatchObject({ 'read-records': 200, 'write-records': 180, 'read-records-complete': false, 'read-records-per-second': 20 });
    expect(map.backpressure).toEqual({ level: 'high', ratio: 0.6, 'busy-ratio': 0.2, 'idle-ratio': 0.2 });
    // The lowest input watermark of the subtasks that reported; none for a vertex without reports.
    expect(map.watermark).toBe(4_000);
    expect(body.vertices.find((v: { id: string }) => v.id === 'src').watermark).toBeNull();
    expect(body.plan.nodes.map((n: { id: string }) => n.id)).toEqual(['src', 'map', 'sink']);
  });

  it('GET /jobs/:id/plan gives the JSON plan with ship strategies', async () => {
    const { body } = await restCluster().get('/jobs/job-1/plan');
    expect(body.plan.nodes[1]).toMatchObject({ id: 'map', parallelism: 3, inputs: [{ num: 0, id: 'src', ship_strategy: 'HASH' }] });
    expect(body.plan.nodes[2].inputs[0].ship_strategy).toBe('REBALANCE');
  });

  it('GET /jobs/:id/vertices/:vertexId gives each subtask with its TaskManager and metrics', async () => {
    const c = restCluster();
    c.metrics.update('job-1', 'src', 1, { attempt: 0, taskManagerId: 'tm-2', receivedAtMs: 1_000, metrics: SNAPSHOT, operators: [] });
    const { body } = await c.get('/jobs/job-1/vertices/src');
    expect(body.subtasks).toHaveLength(2);
    expect(body.subtasks[1]).toMatchObject({ subtask: 1, status: 'RUNNING', 'taskmanager-id': 'tm-2', metrics: { 'write-records': 90 } });
    const missing = await c.get('/jobs/job-1/vertices/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('JOB_VERTEX_NOT_FOUND');
  });

  it('GET /jobs/:id/checkpoints gives counts, latest, the history and what the job restored', async () => {
    const c = restCluster({ restartStrategy: { kind: 'fixed-delay', attempts: 3, delayMs: 500 } });
    c.clock.advance(1_000);
    await c.ackAll(1);
    await settle();
    const { body } = await c.get('/jobs/job-1/checkpoints');
    expect(body.counts).toMatchObject({ completed: 1, failed: 0, in_progress: 0, restored: 0 });
    expect(body.latest.completed).toMatchObject({ id: 1, status: 'COMPLETED', checkpoint_type: 'CHECKPOINT', num_acknowledged_subtasks: 6, num_subtasks: 6, state_size: 60, checkpointed_size: 24 });
    expect(body.latest.restored).toBeNull();
    expect(body.history.map((h: { id: number }) => h.id)).toEqual([1]);

    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom' });
    c.reportAll(TaskState.CANCELED);
    expect((await c.get('/jobs/job-1')).body.state).toBe(JobStatus.RESTARTING);
    c.clock.advance(500);
    await settle();
    const after = await c.get('/jobs/job-1/checkpoints');
    expect(after.body.counts.restored).toBe(1);
    expect(after.body.latest.restored).toEqual({ id: 1, restore_timestamp: 2_500, is_savepoint: false, external_path: 'memory://cp/job-1/chk-1', state_size: 60 });
    c.reportAll(TaskState.RUNNING);
    expect((await c.get('/jobs/job-1')).body).toMatchObject({ state: 'RUNNING', attempt: 1, timestamps: { RESTARTING: 2_000, RUNNING: 2_500 } });
  });

  it('GET /jobs/:id/checkpoints/config gives the checkpoint settings', async () => {
    const { body } = await restCluster().get('/jobs/job-1/checkpoints/config');
    expect(body).toMatchObject({ enabled: true, mode: 'exactly_once', interval: 1_000, state_backend: 'filesystem', unaligned_checkpoints: false });
  });

  it('GET /jobs/:id/exceptions gives the root failure of each attempt with its task and TaskManager', async () => {
    const c = restCluster();
    expect((await c.get('/jobs/job-1/exceptions')).body).toMatchObject({ 'root-exception': null, exceptionHistory: { entries: [] } });
    c.report('job-1', 'tm-1', 'map#0', TaskState.FAILED, { cause: 'boom', code: 'USER_FUNCTION_FAILED' });
    const { body } = await c.get('/jobs/job-1/exceptions');
    expect(body['root-exception']).toContain('boom');
    expect(body.exceptionHistory.entries[0]).toMatchObject({ exceptionName: 'USER_FUNCTION_FAILED', taskName: 'V-map (1/3)', taskManagerId: 'tm-1', attempt: 0 });
    c.reportAll(TaskState.CANCELED);
    // The job's restart strategy is none: the job FAILED.
    expect((await c.get('/jobs/job-1/exceptions')).body.exceptionHistory.entries[0]).toMatchObject({ restarted: false, restartDelay: null });
  });

  it('GET /taskmanagers and /taskmanagers/:id give slots and which job holds them', async () => {
    const c = restCluster();
    const list = (await c.get('/taskmanagers')).body.taskmanagers;
    expect(list.map((tm: { id: string }) => tm.id)).toEqual(['tm-1', 'tm-2']);
    expect(list[0]).toMatchObject({ slotsNumber: 2, dataPort: 7000, pid: 42 });
    expect(list[0].metrics).toBeNull();
    c.metrics.ingest('tm-1', { process: PROCESS, tasks: [{ task: { jobId: 'job-1', attempt: 0, vertexId: 'src', subtaskIndex: 0 }, metrics: SNAPSHOT, operators: [] }] }, 1_500);
    const one = (await c.get('/taskmanagers/tm-1')).body;
    expect(one.metrics).toMatchObject({ heapUsed: 10_000_000, heapMax: 2_000_000_000, rss: 50_000_000, garbageCollectors: [{ name: 'v8', count: 7, time: 12 }], eventLoopDelayP99: 3.5, updated: 1_500 });
    expect((await c.get('/jobs/job-1/vertices/src')).body.subtasks[0].metrics['write-records']).toBe(90);
    expect(one.allocatedSlots).toEqual([
      { index: 0, jobId: 'job-1' },
      { index: 1, jobId: 'job-1' },
    ]);
    const missing = await c.get('/taskmanagers/tm-9');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ errors: [expect.stringContaining("'tm-9'")], code: 'TASK_MANAGER_NOT_FOUND' });
  });

  it('POST /jobs/:id/savepoints answers a request ID whose GET turns COMPLETED with the location', async () => {
    const c = restCluster();
    const post = await c.app.inject({ method: 'POST', url: '/jobs/job-1/savepoints', payload: {} });
    expect(post.statusCode).toBe(202);
    const requestId = (post.json() as { 'request-id': string })['request-id'];
    await settle();
    expect((await c.get(`/jobs/job-1/savepoints/${requestId}`)).body).toEqual({ status: { id: 'IN_PROGRESS' } });
    await c.ackSavepoint(1);
    await settle();
    await settle();
    expect((await c.get(`/jobs/job-1/savepoints/${requestId}`)).body).toEqual({ status: { id: 'COMPLETED' }, operation: { location: SAVEPOINT_URL, checkpointId: 1 } });
    const unknown = await c.get('/jobs/job-1/savepoints/feed');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('TRIGGER_NOT_FOUND');
  });

  it("POST /jobs/:id/checkpoints (Flink 1.19) answers a request ID whose GET turns COMPLETED with the checkpoint's ID; a bad type is 400", async () => {
    const c = restCluster();
    const post = await c.app.inject({ method: 'POST', url: '/jobs/job-1/checkpoints', payload: { checkpointType: 'FULL' } });
    expect(post.statusCode).toBe(202);
    const requestId = (post.json() as { 'request-id': string })['request-id'];
    expect((await c.get(`/jobs/job-1/checkpoints/${requestId}`)).body).toEqual({ status: { id: 'IN_PROGRESS' } });
    expect(c.triggerOptions()[0]).toMatch(/^1 CHECKPOINT\/\/ /);
    await c.ackAll(1);
    await settle();
    await settle();
    expect((await c.get(`/jobs/job-1/checkpoints/${requestId}`)).body).toEqual({ status: { id: 'COMPLETED' }, operation: { location: 'memory://cp/job-1/chk-1', checkpointId: 1 } });
    expect((await c.get(`/jobs/job-1/savepoints/${requestId}`)).body.code).toBe('TRIGGER_NOT_FOUND');
    const bad = await c.app.inject({ method: 'POST', url: '/jobs/job-1/checkpoints', payload: { checkpointType: 'SOME' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_CHECKPOINT_REQUEST' });
    expect((await c.get('/jobs/job-1/checkpoints')).body.counts).toBeDefined();
  });

  it('POST /jobs/:id/savepoints refuses a body that is not what it takes', async () => {
    const c = restCluster();
    const bad = await c.app.inject({ method: 'POST', url: '/jobs/job-1/savepoints', payload: { 'cancel-job': 'yes' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BAD_REQUEST' });
    const notJson = await c.app.inject({ method: 'POST', url: '/jobs/job-1/savepoints', payload: '{', headers: { 'content-type': 'application/json' } });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('POST /jobs/:id/savepoints and /stop refuse a directory outside the allowed roots with 403 at once', async () => {
    const c = restCluster();
    for (const [url, payload] of [['/jobs/job-1/savepoints', { 'target-directory': '/etc' }], ['/jobs/job-1/stop', { targetDirectory: '/etc' }]] as const) {
      const refused = await c.app.inject({ method: 'POST', url, payload });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        code: 'PATH_NOT_ALLOWED',
        errors: ['savepoint directory /etc is outside the directories this JobManager allows: memory://sp (state.savepoints.dir, state.checkpoints.dir, state.savepoints.allowed-dirs); give a path below one of them'],
      });
    }
    expect(c.triggers()).toEqual([]);
  });

  it('PATCH /jobs/:id?mode=cancel cancels the job; another mode is a bad request', async () => {
    const c = restCluster();
    const bad = await c.app.inject({ method: 'PATCH', url: '/jobs/job-1?mode=stop' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('BAD_REQUEST');
    const cancel = await c.app.inject({ method: 'PATCH', url: '/jobs/job-1?mode=cancel' });
    expect(cancel.statusCode).toBe(202);
    expect(c.dispatcher.get('job-1').status).toBe(JobStatus.CANCELLING);
  });

  it.each(['/jobs/nope', '/jobs/nope/plan', '/jobs/nope/checkpoints', '/jobs/nope/exceptions', '/jobs/nope/vertices/src', '/jobs/nope/savepoints/x'])(
    'GET %s of an unknown job is 404 JOB_NOT_FOUND',
    async (url) => {
      const { status, body } = await restCluster().get(url);
      expect(status).toBe(404);
      expect(body).toEqual({ errors: [expect.stringContaining("'nope'")], code: 'JOB_NOT_FOUND' });
    },
  );

  it('answers 405 with Allow for a method a resource does not take, and 404 NOT_FOUND for no resource', async () => {
    const c = restCluster();
    const del = await c.app.inject({ method: 'DELETE', url: '/jobs/job-1' });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('GET, PATCH, HEAD');
    expect(del.json()).toEqual({ errors: ['DELETE is not allowed on /jobs/:jobid; it takes GET, PATCH, HEAD'], code: 'METHOD_NOT_ALLOWED' });
    const getSavepoints = await c.app.inject({ method: 'GET', url: '/jobs/job-1/savepoints' });
    expect(getSavepoints.statusCode).toBe(405);
    expect(getSavepoints.headers.allow).toBe('POST');
    const options = await c.app.inject({ method: 'OPTIONS', url: '/overview' });
    expect(options.statusCode).toBe(204);
    const nothing = await c.get('/nothing/here');
    expect(nothing.status).toBe(404);
    expect(nothing.body.code).toBe('NOT_FOUND');
  });
});

describe('the README', () => {
  it('lists exactly the REST resources the JobManager serves', async () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    const documented = [...readme.matchAll(/^\| (GET|POST|PATCH|PUT|DELETE) \| `([^`?]+)(?:\?[^`]*)?` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    const app = restCluster().app;
    await app.ready();
    expect(documented.length).toBeGreaterThan(10);
    for (const entry of documented) {
      const [method, url] = entry.split(' ') as [string, string];
      expect(app.hasRoute({ method: method as 'GET', url }), entry).toBe(true);
    }
    // Every resource answers OPTIONS: as many resources as documented paths.
    const resources = app.printRoutes({ method: 'OPTIONS', commonPrefix: false }).split('\n').filter((line) => line.includes('OPTIONS')).length;
    expect(new Set(documented.map((entry) => entry.split(' ')[1])).size).toBe(resources);
  });
});
