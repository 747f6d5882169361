import { describe, expect, it } from 'vitest';
import { MiniCluster } from '@weir/testing';
import { CollectSink } from '@weir/testing/job';
import { cleanseRides } from '../../jobs/taxi/ride-cleansing.ts';
import { rideEvents, rideStream, taxiRide, type TaxiRide } from '../../jobs/taxi/taxi-data.ts';
import { at, fromTimestamped, runCollecting } from './taxi-test-utils.ts';

const ride = (rideId: number, start: [number, number], end: [number, number]): TaxiRide => ({
  ...taxiRide(rideId, true),
  eventTime: at(rideId),
  startLon: start[0],
  startLat: start[1],
  endLon: end[0],
  endLat: end[1],
});

const inNYC: [number, number] = [-73.9947, 40.750626];
const outside: [number, number] = [-74.5, 40.750626];

describe('ride cleansing (flink-training RideCleansingExercise)', () => {
  it('keeps a ride that starts and ends in NYC and drops one that starts or ends outside', async () => {
    const rides = [ride(1, inNYC, inNYC), ride(2, outside, inNYC), ride(3, inNYC, outside), ride(4, outside, outside), ride(5, inNYC, inNYC)];
    const out = await runCollecting<TaxiRide>((env) => void cleanseRides(fromTimestamped(env, rides, (r) => r.eventTime, 'rides')).sinkTo(new CollectSink<TaxiRide>('clean')), 'clean', 1);
    expect(out.map((r) => r.rideId)).toEqual([1, 5]);
  });

  it('keeps exactly the generated rides in NYC, both events of each', async () => {
    const out = await runCollecting<TaxiRide>((env) => void cleanseRides(rideStream(env, 200)).sinkTo(new CollectSink<TaxiRide>('clean')), 'clean');
    const kept = [...new Set(out.map((r) => r.rideId))].sort((a, b) => a - b);
    // The generator is deterministic: these counts are what it makes of rides 1..200 (about 80% in NYC).
    expect(out).toHaveLength(2 * kept.length);
    expect(kept.length).toBe(166);
    expect(out.length).toBeLessThan(rideEvents(200).length);
    expect(kept.slice(0, 10)).toEqual([1, 2, 5, 6, 7, 8, 10, 11, 12, 13]);
  });

  it('runs as a job module (its default export, printing) in an in-process MiniCluster', async () => {
    const cluster = new MiniCluster({ mode: 'in-process' });
    await cluster.start();
    try {
      const execution = await cluster.execute(new URL('../../jobs/taxi/ride-cleansing.ts', import.meta.url), { args: ['5'] });
      await execution.result();
      expect(execution.statuses.at(-1)).toBe('FINISHED');
    } finally {
      await cluster.close();
    }
  });
});
