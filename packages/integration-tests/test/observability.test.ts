import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readCommittedLines } from '@weir/examples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIdFrom, ProcessCluster, until, waitForStatus, writeJobFile } from '../src/index.ts';
import { scrape, sumOf } from '../src/prometheus.ts';
import { ENDLESS } from './jobs.ts';
import { PAUSING_SUMS } from './observability-jobs.ts';

const EVENTS = 6_000;
const RATE = 2_000;
/** execution.buffer-timeout: a record reaches its consumer at most this long after it was sent. */
const FLUSH_INTERVAL_MS = 100;
/** metrics.fetcher.update-interval: how often TaskManagers send the JobManager their metrics. */
const METRICS_INTERVAL_MS = 500;

describe('metrics and the REST API of a running cluster', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-observability-'));
  const output = join(dir, 'out');
  let cluster: ProcessCluster;
  let jobId: string;
  let sourceVertex: string;
  let sinkVertex: string;

  const rest = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${cluster.restUrl}${path}`, init);
    return { status: response.status, body: (await response.json()) as Record<string, any>, allow: response.headers.get('allow') };
  };
  /** A metric summed over both TaskManagers, for one vertex of the job. */
  const taskMetric = async (name: string, vertexId: string): Promise<number> => {
    const scrapes = await Promise.all(cluster.taskManagers.map((tm) => scrape(cluster.metricsUrl(tm))));
    return scrapes.reduce((total, samples) => total + sumOf(samples, `weir_taskmanager_job_task_${name}`, { job_id: jobId, task_id: vertexId }), 0);
  };

  beforeAll(async () => {
    cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 2,
      prometheus: true,
      config: {
        'state.checkpoints.dir': join(dir, 'checkpoints'),
        'state.savepoints.dir': join(dir, 'savepoints'),
        'execution.buffer-timeout': FLUSH_INTERVAL_MS,
        'metrics.fetcher.update-interval': METRICS_INTERVAL_MS,
      },
    });
    const run = await cluster.weir(['run', '--detached', writeJobFile(PAUSING_SUMS), '--', String(EVENTS), String(RATE), output]);
    expect(run.code, run.stderr).toBe(0);
    jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    const plan = (await rest(`/jobs/${jobId}/plan`)).body.plan.nodes as { id: string; inputs: unknown[] }[];
    sourceVertex = plan.find((n) => n.inputs.length === 0)!.id;
    sinkVertex = plan.find((n) => n.inputs.length > 0)!.id;
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('exports numRecordsOut on every TaskManager, rising while the job runs, with Flink labels', async () => {
    const first = await until(() => taskMetric('numRecordsOut', sourceVertex), (n) => n > 0, 30_000, 'source records out');
    await sleep(500);
    const second = await taskMetric('numRecordsOut', sourceVertex);
    expect(second).toBeGreaterThan(first);
    const samples = await scrape(cluster.metricsUrl(cluster.taskManagers[0]!));
    const series = samples.find((s) => s.name === 'weir_taskmanager_job_task_numRecordsOut' && s.labels.task_id === sourceVertex)!;
    expect(series.labels).toMatchObject({ job_id: jobId, job_name: 'pausing sums', task_name: 'events', task_attempt_num: '0', tm_id: 'tm-1' });
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('exports the cluster and job metrics on the JobManager', async () => {
    const samples = await until(
      () => scrape(cluster.metricsUrl(cluster.jobManager)),
      (s) => sumOf(s, 'weir_jobmanager_job_numberOfCompletedCheckpoints', { job_id: jobId }) > 0,
      30_000,
      'completed checkpoints on the JobManager',
    );
    expect(sumOf(samples, 'weir_jobmanager_numRegisteredTaskManagers')).toBe(2);
    expect(sumOf(samples, 'weir_jobmanager_taskSlotsTotal')).toBe(4);
    expect(sumOf(samples, 'weir_jobmanager_numRunningJobs')).toBe(1);
    expect(sumOf(samples, 'weir_jobmanager_job_uptime', { job_id: jobId, job_name: 'pausing sums' })).toBeGreaterThan(0);
    expect(sumOf(samples, 'weir_jobmanager_job_numRestarts', { job_id: jobId })).toBe(0);
    expect(sumOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts exactly what the job wrote: the sink received every event within one flush interval of the source sending it', async () => {
    await until(() => taskMetric('numRecordsOut', sourceVertex), (n) => n === EVENTS, 60_000, 'source records out');
    // The source has sent its last buffer: one flush interval later its consumers have it (plus scrape time on a busy machine).
    const received = await until(() => taskMetric('numRecordsIn', sinkVertex), (n) => n === EVENTS, FLUSH_INTERVAL_MS + 2_000, 'sink records in');
    expect(await taskMetric('numBytesIn', sinkVertex)).toBe(await taskMetric('numBytesOut', sourceVertex));
    const committed = await until(async () => (existsSync(output) ? readCommittedLines(output).length : 0), (n) => n === EVENTS, 30_000, 'committed lines');
    expect(committed).toBe(received);
  });

  it('shows the same counts in the REST API within one metrics.fetcher.update-interval', async () => {
    const vertices = await until(
      async () => (await rest(`/jobs/${jobId}`)).body.vertices as { id: string; metrics: Record<string, number | boolean> }[],
      (vs) => vs.every((v) => v.metrics['read-records-complete'] === true) && vs[0]!.metrics['write-records'] === EVENTS && vs[1]!.metrics['read-records'] === EVENTS,
      METRICS_INTERVAL_MS + 2_000,
      'vertex records in the REST API',
    );
    expect(vertices.map((v) => [v.id, v.metrics['read-records'], v.metrics['write-records']])).toEqual([
      [sourceVertex, 0, EVENTS],
      [sinkVertex, EVENTS, 0],
    ]);
    expect(vertices[1]!.metrics['read-bytes']).toBe(await taskMetric('numBytesIn', sinkVertex));
    const tm = (await rest('/taskmanagers/tm-1')).body;
    expect(tm.metrics.heapUsed).toBeGreaterThan(0);
    expect(tm.metrics.rss).toBeGreaterThan(tm.metrics.heapUsed);
  });

  it('GET /config, /overview, /taskmanagers and /taskmanagers/:id describe the cluster', async () => {
    expect((await rest('/config')).body).toMatchObject({ 'refresh-interval': 1_000 });
    expect((await rest('/overview')).body).toMatchObject({ taskmanagers: 2, 'slots-total': 4, 'slots-available': 2, 'jobs-running': 1 });
    const tms = (await rest('/taskmanagers')).body.taskmanagers as { id: string; freeSlots: number }[];
    expect(tms.map((tm) => tm.id).sort()).toEqual(['tm-1', 'tm-2']);
    const tm1 = await rest('/taskmanagers/tm-1');
    expect(tm1.body.allocatedSlots.filter((s: { jobId: string | null }) => s.jobId === jobId)).toHaveLength(1);
    const missing = await rest('/taskmanagers/tm-9');
    expect([missing.status, missing.body.code]).toEqual([404, 'TASK_MANAGER_NOT_FOUND']);
  });

  it('GET /jobs, /jobs/overview and /jobs/:id give the job with its vertices', async () => {
    expect((await rest('/jobs')).body.jobs).toContainEqual({ id: jobId, status: 'RUNNING' });
    expect((await rest('/jobs/overview')).body.jobs.find((j: { jid: string }) => j.jid === jobId)).toMatchObject({ name: 'pausing sums', state: 'RUNNING', tasks: { total: 4, running: 4 } });
    const job = (await rest(`/jobs/${jobId}`)).body;
    expect(job).toMatchObject({ jid: jobId, state: 'RUNNING', isStoppable: true });
    expect(job.vertices.map((v: { id: string; parallelism: number; status: string }) => [v.id, v.parallelism, v.status])).toEqual([
      [sourceVertex, 2, 'RUNNING'],
      [sinkVertex, 2, 'RUNNING'],
    ]);
  });

  it('GET /jobs/:id/plan, /vertices/:id, /exceptions, /checkpoints and /checkpoints/config', async () => {
    const plan = (await rest(`/jobs/${jobId}/plan`)).body.plan;
    expect(plan.nodes[1].inputs).toEqual([{ num: 0, id: sourceVertex, ship_strategy: 'HASH', exchange: 'pipelined_bounded' }]);
    const vertex = (await rest(`/jobs/${jobId}/vertices/${sourceVertex}`)).body;
    expect(vertex.subtasks.map((s: { 'taskmanager-id': string }) => s['taskmanager-id']).sort()).toEqual(['tm-1', 'tm-2']);
    expect((await rest(`/jobs/${jobId}/exceptions`)).body).toMatchObject({ 'root-exception': null, exceptionHistory: { entries: [] } });
    const checkpoints = (await rest(`/jobs/${jobId}/checkpoints`)).body;
    expect(checkpoints.counts.completed).toBeGreaterThan(0);
    expect(checkpoints.latest.completed.external_path).toContain(join(dir, 'checkpoints'));
    expect((await rest(`/jobs/${jobId}/checkpoints/config`)).body).toMatchObject({ enabled: true, interval: 300, mode: 'exactly_once' });
  });

  it('POST /jobs/:id/savepoints takes a savepoint whose GET gives its location', async () => {
    const post = await rest(`/jobs/${jobId}/savepoints`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 'cancel-job': false }) });
    expect(post.status).toBe(202);
    const done = await until(() => rest(`/jobs/${jobId}/savepoints/${post.body['request-id']}`), (r) => r.body.status.id === 'COMPLETED', 60_000, 'savepoint');
    expect(existsSync(join(fileURLToPath(done.body.operation.location), '_metadata'))).toBe(true);
  });

  it('PATCH /jobs/:id?mode=cancel cancels a job', async () => {
    const run = await cluster.weir(['run', '--detached', writeJobFile(ENDLESS)]);
    const endless = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, endless, ['RUNNING']);
    const patch = await rest(`/jobs/${endless}?mode=cancel`, { method: 'PATCH' });
    expect(patch.status).toBe(202);
    await waitForStatus(cluster.client, endless, ['CANCELED']);
  });

  it.each([
    ['GET', '/jobs/0123456789abcdef0123456789abcdef'],
    ['PATCH', '/jobs/0123456789abcdef0123456789abcdef?mode=cancel'],
    ['GET', '/jobs/0123456789abcdef0123456789abcdef/plan'],
    ['GET', '/jobs/0123456789abcdef0123456789abcdef/vertices/v'],
    ['GET', '/jobs/0123456789abcdef0123456789abcdef/exceptions'],
    ['GET', '/jobs/0123456789abcdef0123456789abcdef/checkpoints'],
    ['GET', '/jobs/0123456789abcdef0123456789abcdef/checkpoints/config'],
    ['POST', '/jobs/0123456789abcdef0123456789abcdef/savepoints'],
    ['GET', '/jobs/0123456789abcdef0123456789abcdef/savepoints/abc'],
    ['POST', '/jobs/0123456789abcdef0123456789abcdef/stop'],
  ])('%s %s of an unknown job is 404 JOB_NOT_FOUND', async (method, path) => {
    const response = await rest(path, { method });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [expect.stringContaining('0123456789abcdef0123456789abcdef')], code: 'JOB_NOT_FOUND' });
  });

  it.each([
    ['DELETE', '/jobs', 'GET, HEAD'],
    ['POST', '/overview', 'GET, HEAD'],
    ['PUT', '/taskmanagers', 'GET, HEAD'],
    ['DELETE', `/jobs/{job}`, 'GET, PATCH, HEAD'],
    ['GET', '/jobs/{job}/savepoints', 'POST'],
    ['PUT', '/jobs/{job}/checkpoints', 'GET, POST, HEAD'],
    ['GET', '/jobs/{job}/stop', 'POST'],
  ])('%s %s is 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
    const response = await rest(path.replace('{job}', jobId), { method });
    expect([response.status, response.body.code, response.allow]).toEqual([405, 'METHOD_NOT_ALLOWED', allow]);
  });

  it('POST /jobs/:id/stop stops the job with a savepoint: it FINISHES', async () => {
    const post = await rest(`/jobs/${jobId}/stop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ drain: false }) });
    expect(post.status).toBe(202);
    const done = await until(() => rest(`/jobs/${jobId}/savepoints/${post.body['request-id']}`), (r) => r.body.status.id === 'COMPLETED', 60_000, 'stop');
    expect(done.body.operation.location).toContain(join(dir, 'savepoints'));
    await waitForStatus(cluster.client, jobId, ['FINISHED']);
    expect((await rest('/overview')).body).toMatchObject({ 'jobs-running': 0, 'jobs-finished': 1, 'jobs-cancelled': 1 });
  });
});
