import { JobStatus, TaskState, type OperatorMetricsSnapshot } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { settle } from '../testing/checkpointing-cluster.ts';
import { restCluster, SNAPSHOT } from '../testing/rest-cluster.ts';

/** The map vertex's one operator, with a built-in metric and two a user function registered. */
function mapOperator(seen: number, hits: number): OperatorMetricsSnapshot {
  return {
    operatorId: 'op-map',
    operatorName: 'Map: parse',
    metrics: [
      { name: 'numRecordsIn', value: 100 },
      { name: 'seen', value: seen },
      { name: 'city.berlin.hits', value: hits },
    ],
  };
}

/** The map vertex (p=3) with subtasks 0 and 1 reported in attempt 0, subtask 2 not yet. */
function reported() {
  const c = restCluster();
  c.metrics.update('job-1', 'map', 0, { attempt: 0, taskManagerId: 'tm-1', receivedAtMs: 1_000, metrics: SNAPSHOT, operators: [mapOperator(7, 2)] });
  c.metrics.update('job-1', 'map', 1, { attempt: 0, taskManagerId: 'tm-2', receivedAtMs: 1_000, metrics: { ...SNAPSHOT, currentInputWatermark: Number.NEGATIVE_INFINITY }, operators: [mapOperator(9, 0)] });
  return c;
}

describe('REST metrics resources (Flink shapes)', () => {
  it("GET /jobs/:id/vertices/:v/metrics lists '<subtask>.<metric>' and '<subtask>.<operator>.<metric>' IDs; ?get= gives values as strings, in the order asked", async () => {
    const c = reported();
    const ids = ((await c.get('/jobs/job-1/vertices/map/metrics')).body as unknown as { id: string }[]).map((m) => m.id);
    // The operator's name goes through Flink's query-service filter: ' ' and ':' become '_'.
    expect(ids).toEqual(expect.arrayContaining(['0.numRecordsIn', '0.busyTimeMsPerSecond', '0.Map__parse.numRecordsIn', '0.Map__parse.seen', '1.Map__parse.city.berlin.hits']));
    expect(ids.filter((id) => id.startsWith('2.'))).toEqual([]);
    const values = await c.get('/jobs/job-1/vertices/map/metrics?get=1.Map__parse.seen,0.Map__parse.seen,2.Map__parse.seen,0.nothing,1.currentInputWatermark');
    expect(values.body).toEqual([
      { id: '1.Map__parse.seen', value: '9' },
      { id: '0.Map__parse.seen', value: '7' },
      { id: '1.currentInputWatermark', value: '-Infinity' },
    ]);
  });

  it('GET /jobs/:id/vertices/:v/subtasks/metrics aggregates over the subtasks that have a metric: min, max, avg, sum and skew, or those ?agg= asks for', async () => {
    const c = reported();
    const ids = ((await c.get('/jobs/job-1/vertices/map/subtasks/metrics')).body as unknown as { id: string }[]).map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['numRecordsIn', 'Map__parse.seen', 'Map__parse.city.berlin.hits']));
    expect(ids.some((id) => /^\d/.test(id))).toBe(false);
    const all = await c.get('/jobs/job-1/vertices/map/subtasks/metrics?get=Map__parse.seen,Map__parse.city.berlin.hits,nothing,currentInputWatermark');
    // Skew is Flink's: mean absolute deviation over the mean, as a percentage capped at 100. A watermark of -Infinity has no finite figures.
    expect(all.body).toEqual([
      { id: 'Map__parse.seen', min: 7, max: 9, avg: 8, sum: 16, skew: 12.5 },
      { id: 'Map__parse.city.berlin.hits', min: 0, max: 2, avg: 1, sum: 2, skew: 100 },
      { id: 'currentInputWatermark', min: null, max: 5_000, avg: null, sum: null, skew: null },
    ]);
    expect((await c.get('/jobs/job-1/vertices/map/subtasks/metrics?get=Map__parse.seen&agg=SUM,max')).body).toEqual([{ id: 'Map__parse.seen', max: 9, sum: 16 }]);
    expect((await c.get('/jobs/job-1/vertices/map/subtasks/metrics?get=Map__parse.seen&agg=sum&subtasks=1-2,7')).body).toEqual([{ id: 'Map__parse.seen', sum: 9 }]);
  });

  it('refuses an aggregation or a subtask filter it does not know (400 BAD_REQUEST)', async () => {
    const c = reported();
    for (const query of ['agg=median', 'subtasks=one', 'subtasks=1-']) {
      const { status, body } = await c.get(`/jobs/job-1/vertices/map/subtasks/metrics?get=numRecordsIn&${query}`);
      expect([status, body.code], query).toEqual([400, 'BAD_REQUEST']);
    }
  });

  it("GET /jobs/:id/vertices/:v/subtasks/:i/metrics gives one subtask's metrics; nothing before its first report; 404 SUBTASK_NOT_FOUND beyond the vertex", async () => {
    const c = reported();
    expect((await c.get('/jobs/job-1/vertices/map/subtasks/1/metrics?get=Map__parse.seen,numRecordsOut')).body).toEqual([
      { id: 'Map__parse.seen', value: '9' },
      { id: 'numRecordsOut', value: '90' },
    ]);
    expect((await c.get('/jobs/job-1/vertices/map/subtasks/2/metrics')).body).toEqual([]);
    const beyond = await c.get('/jobs/job-1/vertices/map/subtasks/3/metrics');
    expect([beyond.status, beyond.body.code]).toEqual([404, 'SUBTASK_NOT_FOUND']);
    expect((await c.get('/jobs/job-1/vertices/map/subtasks/x/metrics')).status).toBe(400);
    const vertex = await c.get('/jobs/job-1/vertices/nope/metrics');
    expect([vertex.status, vertex.body.code]).toEqual([404, 'JOB_VERTEX_NOT_FOUND']);
  });

  it("shows only the current attempt's metrics: after a restart nothing until the new attempt reports, whose counts start again", async () => {
    const c = restCluster({ restartStrategy: { kind: 'fixed-delay', attempts: 3, delayMs: 500 } });
    c.metrics.update('job-1', 'map', 0, { attempt: 0, taskManagerId: 'tm-1', receivedAtMs: 1_000, metrics: SNAPSHOT, operators: [mapOperator(7, 2)] });
    c.report('job-1', 'tm-1', 'map#0', TaskState.FAILED, { cause: 'boom' });
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(500);
    await settle();
    c.reportAll(TaskState.RUNNING);
    expect((await c.get('/jobs/job-1')).body).toMatchObject({ state: JobStatus.RUNNING, attempt: 1 });
    expect((await c.get('/jobs/job-1/vertices/map/metrics?get=0.Map__parse.seen')).body).toEqual([]);
    c.metrics.update('job-1', 'map', 0, { attempt: 1, taskManagerId: 'tm-2', receivedAtMs: 2_000, metrics: SNAPSHOT, operators: [mapOperator(1, 0)] });
    expect((await c.get('/jobs/job-1/vertices/map/metrics?get=0.Map__parse.seen')).body).toEqual([{ id: '0.Map__parse.seen', value: '1' }]);
  });

  it("GET /jobs/:id/metrics gives Flink's job metrics", async () => {
    const c = restCluster();
    const ids = ((await c.get('/jobs/job-1/metrics')).body as unknown as { id: string }[]).map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['uptime', 'downtime', 'numRestarts', 'numberOfCompletedCheckpoints', 'lastCheckpointRestoreTimestamp']));
    expect((await c.get('/jobs/job-1/metrics?get=numRestarts&get=lastCheckpointRestoreTimestamp')).body).toEqual([
      { id: 'numRestarts', value: '0' },
      { id: 'lastCheckpointRestoreTimestamp', value: '-1' },
    ]);
  });
});
