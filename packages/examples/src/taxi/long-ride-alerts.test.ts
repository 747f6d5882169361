import { describe, expect, it } from 'vitest';
import { KeyedOneInputStreamOperatorTestHarness } from '@weir/testing';
import { CollectSink } from '@weir/testing/job';
import { AlertFunction, longRideAlerts, seenState } from '../../jobs/taxi/long-ride-alerts.ts';
import { rideDurationMs, rideStream, taxiRide, type TaxiRide } from '../../jobs/taxi/taxi-data.ts';
import { at, runCollecting } from './taxi-test-utils.ts';

const start = (rideId: number, minute: number): TaxiRide => ({ ...taxiRide(rideId, true), eventTime: at(minute) });
const end = (rideId: number, minute: number): TaxiRide => ({ ...taxiRide(rideId, false), eventTime: at(minute) });

const harness = () => KeyedOneInputStreamOperatorTestHarness.forKeyedProcessFunction(new AlertFunction(), (r: TaxiRide) => r.rideId);

describe('long ride alerts (flink-training LongRidesExercise)', () => {
  it('alerts a ride without its END two hours after its START, once, and forgets it when the END comes', async () => {
    const h = harness();
    await h.processElement(start(1, 0), at(0));
    await h.processWatermark(at(120) - 1);
    expect(h.extractOutputValues()).toEqual([]);
    await h.processWatermark(at(120));
    expect(h.getRecordOutput()).toEqual([{ value: 1, timestamp: at(120) }]);
    await h.processElement(end(1, 150), at(150));
    expect(h.extractOutputValues()).toEqual([1]);
    expect(h.numKeyedStateEntries()).toEqual({});
  });

  it('does not alert a short ride, and deletes its timer', async () => {
    const h = harness();
    await h.processElement(start(2, 0), at(0));
    await h.processElement(end(2, 30), at(30));
    await h.processWatermark(at(500));
    expect(h.extractOutputValues()).toEqual([]);
    expect(h.numKeyedStateEntries()).toEqual({});
  });

  it('handles an END that comes before its START: a long one alerts at the START, a short one never', async () => {
    const h = harness();
    await h.processElement(end(3, 200), at(200));
    await h.processElement(end(4, 20), at(20));
    expect(h.getKeyedState(3, seenState)).toEqual({ first: end(3, 200), alerted: false });
    await h.processElement(start(3, 10), at(10));
    await h.processElement(start(4, 10), at(10));
    await h.processWatermark(at(1000));
    expect(h.extractOutputValues()).toEqual([3]);
    expect(h.numKeyedStateEntries()).toEqual({});
  });

  it('keeps a ride and its timer across a snapshot and restore', async () => {
    const h = harness();
    await h.processElement(start(5, 0), at(0));
    const snapshot = await h.snapshot();
    const restored = KeyedOneInputStreamOperatorTestHarness.restore(h, snapshot);
    await restored.processWatermark(at(121));
    expect(restored.extractOutputValues()).toEqual([5]);
  });

  it('alerts exactly the generated rides over two hours', async () => {
    const out = await runCollecting<number>((env) => void longRideAlerts(rideStream(env, 300)).sinkTo(new CollectSink<number>('alerts')), 'alerts');
    const expected = Array.from({ length: 300 }, (_, i) => i + 1).filter((id) => rideDurationMs(id) > 2 * 60 * 60 * 1000);
    expect(out.sort((a, b) => a - b)).toEqual(expected);
    expect(expected.slice(0, 7)).toEqual([36, 45, 48, 67, 91, 122, 139]);
  });
});
