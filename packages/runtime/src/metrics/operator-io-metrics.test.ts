import { WeirError } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { RuntimeErrorCode } from '../errors.ts';
import { registerOperatorIO } from './operator-io-metrics.ts';
import { OperatorMetrics } from './operator-metric-group.ts';

describe('registerOperatorIO', () => {
  it("reads Flink's built-in operator metrics from the chain's own counts and watermarks when sampled", () => {
    const io = { in: 0, out: 0, inputWatermark: Number.NEGATIVE_INFINITY, outputWatermark: Number.NEGATIVE_INFINITY };
    const metrics = new OperatorMetrics({ jobId: 'j', jobName: 'job', taskName: 'Map', subtaskIndex: 0, attempt: 0, operatorId: 'op', operatorName: 'Map' });
    registerOperatorIO(metrics, {
      numRecordsIn: () => io.in,
      numRecordsOut: () => io.out,
      currentInputWatermark: () => io.inputWatermark,
      currentOutputWatermark: () => io.outputWatermark,
    });
    const values = (nowMs: number) => Object.fromEntries(metrics.sample(nowMs).map((v) => [v.name, v.value]));
    expect(values(0)).toEqual({
      numRecordsIn: 0,
      numRecordsOut: 0,
      numRecordsInPerSecond: 0,
      numRecordsOutPerSecond: 0,
      currentInputWatermark: Number.NEGATIVE_INFINITY,
      currentOutputWatermark: Number.NEGATIVE_INFINITY,
    });
    Object.assign(io, { in: 200, out: 100, inputWatermark: 5_000, outputWatermark: 4_000 });
    // The rates are MeterViews over the counts: 200 in and 100 out over the 2 s since the first sample.
    expect(values(2_000)).toEqual({
      numRecordsIn: 200,
      numRecordsOut: 100,
      numRecordsInPerSecond: 100,
      numRecordsOutPerSecond: 50,
      currentInputWatermark: 5_000,
      currentOutputWatermark: 4_000,
    });
  });

  it('refuses to let user code change the built-in counts (METRIC_READ_ONLY), and gives them back on a second registration', () => {
    const metrics = new OperatorMetrics({ jobId: 'j', jobName: 'job', taskName: 'Map', subtaskIndex: 0, attempt: 0, operatorId: 'op', operatorName: 'Map' });
    registerOperatorIO(metrics, { numRecordsIn: () => 7, numRecordsOut: () => 0, currentInputWatermark: () => 0, currentOutputWatermark: () => 0 });
    const builtIn = metrics.group.counter('numRecordsIn');
    expect(builtIn.getCount()).toBe(7);
    const error = (() => {
      try {
        builtIn.inc();
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(WeirError);
    expect((error as WeirError).code).toBe(RuntimeErrorCode.METRIC_READ_ONLY);
  });
});
