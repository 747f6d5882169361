import { describe, expect, it } from 'vitest';
import { TwoInputStreamOperatorTestHarness } from '@weir/testing';
import { CollectSink } from '@weir/testing/job';
import { EnrichmentFunction, fareState, joinRidesAndFares, rideState, type RideAndFare } from '../../jobs/taxi/rides-and-fares.ts';
import { fareStream, rideStream, taxiFare, taxiRide, type TaxiFare, type TaxiRide } from '../../jobs/taxi/taxi-data.ts';

const harness = () => TwoInputStreamOperatorTestHarness.forKeyedCoProcessFunction(new EnrichmentFunction(), (r: TaxiRide) => r.rideId, (f: TaxiFare) => f.rideId);

describe('rides and fares (flink-training RidesAndFaresExercise)', () => {
  it('pairs a ride with its fare whichever comes first, and keeps no state afterwards', async () => {
    const h = harness();
    await h.processElement1(taxiRide(1, true));
    await h.processElement2(taxiFare(2));
    expect(h.getKeyedState(1, rideState)).toEqual(taxiRide(1, true));
    expect(h.getKeyedState(2, fareState)).toEqual(taxiFare(2));
    await h.processElement2(taxiFare(1));
    await h.processElement1(taxiRide(2, true));
    expect(h.extractOutputValues()).toEqual([
      { ride: taxiRide(1, true), fare: taxiFare(1) },
      { ride: taxiRide(2, true), fare: taxiFare(2) },
    ]);
    expect(h.getKeyedState(1, rideState)).toBeUndefined();
    expect(h.getKeyedState(2, fareState)).toBeUndefined();
  });

  it('keeps a waiting ride across a snapshot and restore', async () => {
    const h = harness();
    await h.processElement1(taxiRide(7, true));
    const restored = TwoInputStreamOperatorTestHarness.restore(h, await h.snapshot());
    await restored.processElement2(taxiFare(7));
    expect(restored.extractOutputValues()).toEqual([{ ride: taxiRide(7, true), fare: taxiFare(7) }]);
  });

  it('joins every generated ride with its own fare, at parallelism 2 in an in-process MiniCluster', async () => {
    const { MiniCluster } = await import('@weir/testing');
    const cluster = new MiniCluster({ mode: 'in-process', taskManagers: 2 });
    await cluster.start();
    try {
      const execution = await cluster.execute((env) => void joinRidesAndFares(rideStream(env, 150), fareStream(env, 150)).sinkTo(new CollectSink<RideAndFare>('joined')), { parallelism: 2 });
      await execution.result();
      const joined = execution.collected<RideAndFare>('joined').sort((a, b) => a.ride.rideId - b.ride.rideId);
      expect(joined).toEqual(Array.from({ length: 150 }, (_, i) => ({ ride: taxiRide(i + 1, true), fare: taxiFare(i + 1) })));
    } finally {
      await cluster.close();
    }
  });
});
