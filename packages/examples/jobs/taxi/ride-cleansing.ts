// Flink's "Learn Flink" exercise Ride Cleansing (flink-training's RideCleansingExercise), in
// Weir: keep only the taxi rides that start and end in New York City.
//
//   pnpm weir run packages/examples/jobs/taxi/ride-cleansing.ts -- [rides]
import type { DataStream, StreamExecutionEnvironment } from '@weir/api';
import { isInNYC, rideStream, type TaxiRide } from './taxi-data.ts';

/** The exercise: the START and END events of rides whose start and end are both in NYC. */
export function cleanseRides(rides: DataStream<TaxiRide>): DataStream<TaxiRide> {
  return rides.filter((r) => isInNYC(r.startLon, r.startLat) && isInNYC(r.endLon, r.endLat)).name('nyc-filter');
}

export default function rideCleansing(env: StreamExecutionEnvironment, args: string[]): void {
  const count = Number(args[0] ?? 1000);
  cleanseRides(rideStream(env, count)).print();
  env.execute('Taxi Ride Cleansing');
}
