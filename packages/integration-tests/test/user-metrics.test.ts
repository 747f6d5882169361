import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIdFrom, ProcessCluster, until, waitForStatus, writeJobFile, type WeirProcess } from '../src/index.ts';
import { scrape, sumOf, type PromSample } from '../src/prometheus.ts';
import { USER_METRICS } from './user-metrics-jobs.ts';

/** Records the source emits per attempt; even, so half are even. */
const RECORDS = 3_000;
/** Slow enough that records flow for a few seconds (the meter is seen above 0), fast enough for a short test. */
const RATE = 1_000;
/** metrics.fetcher.update-interval: how often TaskManagers send the JobManager their metrics. */
const METRICS_INTERVAL_MS = 500;
const OPERATOR = 'Check: values';
/** The operator's name in the REST API's metric IDs: Flink's query service turns ':' and ' ' into '_'. */
const REST_OPERATOR = 'Check__values';

/**
 * User metrics of a job on real processes: what its map function registered (a counter, a
 * gauge, a meter, a histogram, a nested group with a key and a value) read from the
 * TaskManagers' Prometheus endpoints and from the JobManager's REST API, with the values the
 * job makes certain; then across a SIGKILLed TaskManager. Weir does what Flink does there:
 * metrics are not state, so the restarted attempt's start again from 0 (the job reads every
 * record again: no checkpointing), under task_attempt_num 1, and the JobManager shows the new
 * attempt's only.
 */
describe('user metrics on real TaskManagers, through Prometheus and the REST API, across a restart', () => {
  let cluster: ProcessCluster;
  let jobId: string;
  let mapVertex: string;
  let sourceVertex: string;

  const rest = async (path: string) => {
    const response = await fetch(`${cluster.restUrl}${path}`);
    return (await response.json()) as any;
  };
  /** Every live TaskManager's samples of the map operator's series `weir_taskmanager_job_task_operator_<name>`. */
  const operatorSamples = async (name: string): Promise<PromSample[]> => {
    const scrapes = await Promise.all(cluster.liveTaskManagers.map((tm) => scrape(cluster.metricsUrl(tm))));
    return scrapes.flat().filter((s) => s.name === `weir_taskmanager_job_task_operator_${name}` && s.labels.job_id === jobId && s.labels.operator_name === OPERATOR);
  };
  const operatorSum = async (name: string, labels: Record<string, string> = {}): Promise<number> => sumOf(await operatorSamples(name), `weir_taskmanager_job_task_operator_${name}`, labels);
  /** The map vertex's metrics aggregated over its subtasks by the JobManager: `{ id: { sum, min, max } }`. */
  const aggregated = async (ids: readonly string[]): Promise<Record<string, { sum: number; min: number; max: number }>> => {
    const body = (await rest(`/jobs/${jobId}/vertices/${mapVertex}/subtasks/metrics?get=${ids.map((id) => `${REST_OPERATOR}.${id}`).join(',')}&agg=sum,min,max`)) as { id: string; sum: number; min: number; max: number }[];
    return Object.fromEntries(body.map(({ id, ...figures }) => [id.slice(REST_OPERATOR.length + 1), figures]));
  };
  /** Every record of an attempt went through the map: its TaskManagers say `seen` adds up to RECORDS, and the source sent them all. */
  const allSeen = async (attempt: string): Promise<void> => {
    await until(() => operatorSum('seen', { task_attempt_num: attempt }), (n) => n >= RECORDS, 60_000, `records seen in attempt ${attempt}`);
  };

  beforeAll(async () => {
    cluster = await ProcessCluster.start({
      taskManagers: 2,
      // One slot each: each TaskManager runs one subtask of the map, so the kill takes exactly one.
      slots: 1,
      prometheus: true,
      config: {
        'metrics.fetcher.update-interval': METRICS_INTERVAL_MS,
        'restart-strategy.type': 'fixed-delay',
        'restart-strategy.fixed-delay.attempts': 3,
        'restart-strategy.fixed-delay.delay': '500ms',
      },
    });
    const run = await cluster.weir(['run', '--detached', writeJobFile(USER_METRICS), '--', String(RECORDS), String(RATE)]);
    expect(run.code, run.stderr).toBe(0);
    jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    const plan = (await rest(`/jobs/${jobId}/plan`)).plan.nodes as { id: string; inputs: unknown[] }[];
    sourceVertex = plan.find((n) => n.inputs.length === 0)!.id;
    mapVertex = plan.find((n) => n.inputs.length > 0)!.id;
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('exports each user metric on the TaskManagers with Flink labels: the meter rises while records flow', async () => {
    // Read while the source still sends: RECORDS at RATE take a few seconds.
    const rates = await until(() => operatorSamples('seenPerSecond'), (s) => s.some((sample) => sample.value > 0), 30_000, 'seenPerSecond above 0');
    expect(rates.map((s) => s.labels.subtask_index).sort()).toEqual(['0', '1']);
    expect(rates[0]!.labels).toMatchObject({ job_name: 'user metrics', operator_name: OPERATOR, task_attempt_num: '0' });
    expect(rates.map((s) => s.labels.tm_id).sort()).toEqual(['tm-1', 'tm-2']);
  });

  it('gives exact values on Prometheus once every record went through: counter, gauge, histogram count and quantiles, key-value group', async () => {
    await allSeen('0');
    expect(await operatorSum('seen')).toBe(RECORDS);
    expect(await operatorSum('numRecordsIn')).toBe(RECORDS);
    expect(await operatorSum('checks_parity_records', { parity: 'even' })).toBe(RECORDS / 2);
    expect(await operatorSum('checks_parity_records', { parity: 'odd' })).toBe(RECORDS / 2);
    expect((await operatorSamples('attempt')).map((s) => s.value)).toEqual([0, 0]);
    expect(await operatorSum('value_count')).toBe(RECORDS);
    // Flink's PrometheusReporter quantiles, per subtask; every value is one the source emitted.
    const quantiles = await operatorSamples('value');
    expect([...new Set(quantiles.map((s) => s.labels.quantile))].sort()).toEqual(['0.5', '0.75', '0.95', '0.98', '0.99', '0.999']);
    expect(quantiles.every((s) => s.value >= 0 && s.value <= RECORDS - 1)).toBe(true);
  });

  it('shows the same values in the JobManager\'s REST API: per subtask with Flink IDs, and aggregated over subtasks', async () => {
    const figures = await until(
      () => aggregated(['seen', 'attempt', 'value_min', 'value_max', 'value_count', 'checks.parity.even.records', 'checks.parity.odd.records', 'numRecordsOut']),
      (f) => f.seen?.sum === RECORDS && f.numRecordsOut?.sum === RECORDS,
      METRICS_INTERVAL_MS + 10_000,
      'seen in the REST API',
    );
    expect(figures).toEqual({
      seen: expect.objectContaining({ sum: RECORDS }),
      attempt: { sum: 0, min: 0, max: 0 },
      value_min: expect.objectContaining({ min: 0 }),
      value_max: expect.objectContaining({ max: RECORDS - 1 }),
      value_count: expect.objectContaining({ sum: RECORDS }),
      'checks.parity.even.records': expect.objectContaining({ sum: RECORDS / 2 }),
      'checks.parity.odd.records': expect.objectContaining({ sum: RECORDS / 2 }),
      numRecordsOut: expect.objectContaining({ sum: RECORDS }),
    });
    const ids = ((await rest(`/jobs/${jobId}/vertices/${mapVertex}/metrics`)) as { id: string }[]).map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining([`0.${REST_OPERATOR}.seen`, `1.${REST_OPERATOR}.seen`, `0.${REST_OPERATOR}.checks.parity.even.records`, `1.${REST_OPERATOR}.value_p99`, '0.numRecordsIn']));
    // One subtask's count is the one its TaskManager exports.
    const [perSubtask] = (await rest(`/jobs/${jobId}/vertices/${mapVertex}/subtasks/0/metrics?get=${REST_OPERATOR}.seen`)) as { id: string; value: string }[];
    expect(perSubtask).toEqual({ id: `${REST_OPERATOR}.seen`, value: String(await operatorSum('seen', { subtask_index: '0' })) });
  });

  it('brings the meter to exactly 0 once no record came for its 5 s span', async () => {
    const rates = await until(() => operatorSamples('seenPerSecond'), (s) => s.length === 2 && s.every((sample) => sample.value === 0), 30_000, 'seenPerSecond at 0');
    expect(rates.map((s) => s.value)).toEqual([0, 0]);
  });

  it('starts the metrics again from 0 in the attempt after a SIGKILLed TaskManager, as Flink does: metrics are not state', async () => {
    const subtasks = (await rest(`/jobs/${jobId}/vertices/${mapVertex}`)).subtasks as { subtask: number; 'taskmanager-id': string }[];
    const victimId = subtasks.find((s) => s.subtask === 0)!['taskmanager-id'];
    const victim = cluster.taskManagers.find((tm) => tm.name === `taskmanager-${victimId.slice('tm-'.length)}`) as WeirProcess;
    await cluster.killTaskManager(victim);
    // The survivor's slot and a new TaskManager's take the restarted attempt's two subtasks.
    await cluster.startTaskManager();
    await until(() => rest(`/jobs/${jobId}`), (job) => job.state === 'RUNNING' && job.attempt === 1, 60_000, 'the job running its attempt 1');

    await allSeen('1');
    // The source has sent every record of attempt 1 (its task metric), so no more are on their way to the map.
    await until(() => Promise.all(cluster.liveTaskManagers.map((tm) => scrape(cluster.metricsUrl(tm)))), (scrapes) => sumOf(scrapes.flat(), 'weir_taskmanager_job_task_numRecordsOut', { job_id: jobId, task_id: sourceVertex, task_attempt_num: '1' }) === RECORDS, 30_000, 'source records out in attempt 1');
    // Exactly RECORDS, not RECORDS plus what attempt 0 counted: every series is attempt 1's and started at 0.
    expect(await operatorSum('seen', { task_attempt_num: '1' })).toBe(RECORDS);
    expect(await operatorSum('checks_parity_records', { parity: 'even', task_attempt_num: '1' })).toBe(RECORDS / 2);
    expect(await operatorSum('value_count', { task_attempt_num: '1' })).toBe(RECORDS);
    expect((await operatorSamples('seen')).map((s) => s.labels.task_attempt_num)).toEqual(['1', '1']);
    expect((await operatorSamples('attempt')).map((s) => s.value)).toEqual([1, 1]);

    // The JobManager shows the new attempt's values only.
    const figures = await until(() => aggregated(['seen', 'attempt', 'value_count']), (f) => f.seen?.sum === RECORDS && f.attempt?.min === 1, METRICS_INTERVAL_MS + 10_000, 'attempt 1 in the REST API');
    expect(figures).toEqual({ seen: expect.objectContaining({ sum: RECORDS }), attempt: { sum: 2, min: 1, max: 1 }, value_count: expect.objectContaining({ sum: RECORDS }) });
    expect(await rest(`/jobs/${jobId}/metrics?get=numRestarts`)).toEqual([{ id: 'numRestarts', value: '1' }]);
  });
});
