import { DescriptiveStatisticsHistogram, MeterView, SimpleCounter } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { OperatorMetrics, type OperatorScope } from './operator-metric-group.ts';

const SCOPE: OperatorScope = { jobId: 'j1', jobName: 'orders', taskName: 'Map -> Sink', subtaskIndex: 2, attempt: 1, operatorId: 'op-map', operatorName: 'Map' };

/** The sampled values by REST name, and the Prometheus series of each (undefined: not exported). */
function sampled(metrics: OperatorMetrics, nowMs: number, ended = false) {
  const values = metrics.sample(nowMs, ended);
  return {
    byName: Object.fromEntries(values.map((v) => [v.name, v.value])),
    prometheus: Object.fromEntries(values.map((v) => [v.name, v.prometheus])),
  };
}

describe('OperatorMetrics', () => {
  it('reads what user code registered when sampled: a counter, number and boolean gauges, a meter, a histogram', () => {
    const metrics = new OperatorMetrics(SCOPE);
    const group = metrics.group;
    const seen = group.counter('seen');
    let queue = 3;
    group.gauge('queue', () => queue);
    group.gauge('open', { getValue: () => true });
    group.gauge('label', () => 'not a number');
    const meter = group.meter('events', new MeterView(10));
    const latency = group.histogram('latency', new DescriptiveStatisticsHistogram(10));
    seen.inc();
    seen.inc(4);
    seen.dec();
    for (const v of [10, 20, 30, 40]) latency.update(v);
    expect(sampled(metrics, 0).byName.events).toBe(0);
    meter.markEvent(50);
    queue = 7;
    const { byName } = sampled(metrics, 5_000);
    // A gauge that is no number or boolean is not reported.
    expect(Object.keys(byName)).toEqual([
      'seen',
      'queue',
      'open',
      'events',
      'latency_count',
      'latency_median',
      'latency_p75',
      'latency_p90',
      'latency_p95',
      'latency_p98',
      'latency_p99',
      'latency_p999',
      'latency_min',
      'latency_max',
      'latency_mean',
      'latency_stddev',
    ]);
    expect([byName.seen, byName.queue, byName.open, byName.events]).toEqual([4, 7, 1, 10]);
    expect([byName.latency_count, byName.latency_median, byName.latency_min, byName.latency_max, byName.latency_mean]).toEqual([4, 25, 10, 40, 25]);
  });

  it('gives a meter a rate of 0 once the operator ended (the last report must not keep the last interval rate)', () => {
    const metrics = new OperatorMetrics(SCOPE);
    const meter = metrics.group.meter('events', new MeterView(60));
    metrics.sample(0);
    meter.markEvent(30);
    expect(sampled(metrics, 1_000).byName.events).toBe(30);
    expect(sampled(metrics, 2_000, true).byName.events).toBe(0);
  });

  it('keeps the first of two metrics registered under one name in one group, as Flink does', () => {
    const metrics = new OperatorMetrics(SCOPE);
    const first = metrics.group.counter('hits');
    const second = metrics.group.counter('hits', new SimpleCounter());
    expect(second).toBe(first);
    // The same name in another group is another metric.
    expect(metrics.group.addGroup('other').counter('hits')).not.toBe(first);
    expect(() => metrics.group.counter('')).toThrow(RangeError);
  });

  it('names a metric by its groups: a plain group is a component, a key-value group its key and value (a label in Prometheus)', () => {
    const metrics = new OperatorMetrics(SCOPE);
    metrics.group.addGroup('city', 'berlin').counter('hits').inc(2);
    metrics.group.addGroup('city', 'paris').counter('hits').inc(3);
    metrics.group.addGroup('io').addGroup('disk').counter('reads').inc(5);
    const { byName, prometheus } = sampled(metrics, 0);
    expect(byName).toEqual({ 'city.berlin.hits': 2, 'city.paris.hits': 3, 'io.disk.reads': 5 });
    expect(prometheus).toEqual({
      'city.berlin.hits': { name: 'city_hits', labels: { city: 'berlin' } },
      'city.paris.hits': { name: 'city_hits', labels: { city: 'paris' } },
      'io.disk.reads': { name: 'io_disk_reads', labels: {} },
    });
  });

  it("turns ' ', '.', ':' and ',' in a component into '_' for the REST name (Flink's query service), and what Prometheus does not take into '_'", () => {
    const metrics = new OperatorMetrics(SCOPE);
    metrics.group.addGroup('my group').addGroup('host', '10.0.0.1:80').counter('reads.total,all').inc();
    const [value] = metrics.sample(0);
    expect(value).toEqual({ name: 'my_group.host.10_0_0_1_80.reads_total_all', prometheus: { name: 'my_group_host_reads_total_all', labels: { host: '10.0.0.1:80' } }, value: 1 });
  });

  it("exports a histogram to Prometheus as Flink's reporter does: its count and quantiles but 0.9, and not min, max, mean, stddev", () => {
    const metrics = new OperatorMetrics(SCOPE);
    metrics.group.addGroup('shard', 'a').histogram('size', new DescriptiveStatisticsHistogram(5)).update(1);
    const { prometheus } = sampled(metrics, 0);
    expect(prometheus.size_count).toBeUndefined();
    expect(prometheus['shard.a.size_count']).toEqual({ name: 'shard_size_count', labels: { shard: 'a' } });
    expect(prometheus['shard.a.size_median']).toEqual({ name: 'shard_size', labels: { shard: 'a', quantile: '0.5' } });
    expect(prometheus['shard.a.size_p999']).toEqual({ name: 'shard_size', labels: { shard: 'a', quantile: '0.999' } });
    for (const figure of ['p90', 'min', 'max', 'mean', 'stddev']) expect(prometheus[`shard.a.size_${figure}`], figure).toBeUndefined();
  });

  it("describes its scope: components, Flink's variables with each key-value group's key, and a metric's identifier", () => {
    const group = new OperatorMetrics(SCOPE).group.addGroup('city', 'berlin').addGroup('cache');
    expect(group.getScopeComponents()).toEqual(['taskmanager', 'orders', 'Map -> Sink', '2', 'Map', 'city', 'berlin', 'cache']);
    expect(group.getAllVariables()).toEqual({
      '<job_id>': 'j1',
      '<job_name>': 'orders',
      '<task_name>': 'Map -> Sink',
      '<subtask_index>': '2',
      '<task_attempt_num>': '1',
      '<operator_id>': 'op-map',
      '<operator_name>': 'Map',
      '<city>': 'berlin',
    });
    expect(group.getMetricIdentifier('hits')).toBe('taskmanager.orders.Map -> Sink.2.Map.city.berlin.cache.hits');
  });
});
