// Flink's "Learn Flink" exercise Rides and Fares (flink-training's RidesAndFaresExercise), in
// Weir: join each ride's START event with its fare. Both streams are keyed by rideId and
// connected; a KeyedCoProcessFunction keeps whichever arrives first in ValueState until the
// other one comes, then emits the pair and clears the state (so state does not grow).
//
//   pnpm weir run packages/examples/jobs/taxi/rides-and-fares.ts -- [rides]
import {
  KeyedCoProcessFunction,
  Types,
  ValueStateDescriptor,
  type Collector,
  type DataStream,
  type KeyedProcessContext,
  type StreamExecutionEnvironment,
  type ValueState,
} from '@weir/api';
import { fareStream, rideStream, type TaxiFare, type TaxiRide } from './taxi-data.ts';

/** A ride's START event with its fare (flink-training's RideAndFare). */
export interface RideAndFare {
  readonly ride: TaxiRide;
  readonly fare: TaxiFare;
}

export const rideState = new ValueStateDescriptor<TaxiRide>('saved ride', Types.GENERIC<TaxiRide>());
export const fareState = new ValueStateDescriptor<TaxiFare>('saved fare', Types.GENERIC<TaxiFare>());

/** flink-training's EnrichmentFunction (a RichCoFlatMapFunction there; Weir's connect takes a co-process function). */
export class EnrichmentFunction extends KeyedCoProcessFunction<number, TaxiRide, TaxiFare, RideAndFare> {
  #ride!: ValueState<TaxiRide>;
  #fare!: ValueState<TaxiFare>;

  override open(): void {
    this.#ride = this.getRuntimeContext().getState(rideState);
    this.#fare = this.getRuntimeContext().getState(fareState);
  }

  processElement1(ride: TaxiRide, _ctx: KeyedProcessContext<number>, out: Collector<RideAndFare>): void {
    const fare = this.#fare.value();
    if (fare === undefined) return this.#ride.update(ride);
    this.#fare.clear();
    out.collect({ ride, fare });
  }

  processElement2(fare: TaxiFare, _ctx: KeyedProcessContext<number>, out: Collector<RideAndFare>): void {
    const ride = this.#ride.value();
    if (ride === undefined) return this.#fare.update(fare);
    this.#ride.clear();
    out.collect({ ride, fare });
  }
}

/** The exercise: START events joined with their fares by rideId. */
export function joinRidesAndFares(rides: DataStream<TaxiRide>, fares: DataStream<TaxiFare>): DataStream<RideAndFare> {
  const starts = rides.filter((r) => r.isStart).keyBy((r) => r.rideId);
  return starts
    .connect(fares.keyBy((f) => f.rideId))
    .process(new EnrichmentFunction())
    .uid('enrichment')
    .name('enrichment');
}

export default function ridesAndFares(env: StreamExecutionEnvironment, args: string[]): void {
  const count = Number(args[0] ?? 1000);
  env.enableCheckpointing(10_000);
  joinRidesAndFares(rideStream(env, count), fareStream(env, count))
    .map((rf) => `ride ${rf.ride.rideId} driver ${rf.ride.driverId} fare ${(rf.fare.totalFareCents / 100).toFixed(2)}`)
    .print();
  env.execute('Join Rides with Fares');
}
