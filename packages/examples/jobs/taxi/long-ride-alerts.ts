// Flink's "Learn Flink" exercise Long Ride Alerts (flink-training's LongRidesExercise), in
// Weir: the rideId of every ride that lasts more than two hours, as soon as that is known,
// from the events of a stream whose START and END may come in either order. Keyed by rideId;
// a KeyedProcessFunction keeps the first event of a ride in ValueState and an event-time timer
// at start + 2 h: the timer alerts a ride whose END has not come by then; an END that comes
// after the START deletes the timer, and one that comes first is kept until the START. Every
// ride's state is gone once both events were seen.
//
//   pnpm weir run packages/examples/jobs/taxi/long-ride-alerts.ts -- [rides]
import {
  KeyedProcessFunction,
  Types,
  ValueStateDescriptor,
  type Collector,
  type DataStream,
  type KeyedProcessContext,
  type OnTimerContext,
  type StreamExecutionEnvironment,
  type ValueState,
} from '@weir/api';
import { rideStream, type TaxiRide } from './taxi-data.ts';

export const TWO_HOURS_MS = 2 * 60 * 60 * 1000;

/** The first event seen of a ride, and whether it was already alerted (its timer fired before the END came). */
interface RideSeen {
  readonly first: TaxiRide;
  readonly alerted: boolean;
}

export const seenState = new ValueStateDescriptor<RideSeen>('ride', Types.GENERIC<RideSeen>());

/** flink-training's AlertFunction. */
export class AlertFunction extends KeyedProcessFunction<number, TaxiRide, number> {
  #seen!: ValueState<RideSeen>;

  override open(): void {
    this.#seen = this.getRuntimeContext().getState(seenState);
  }

  processElement(ride: TaxiRide, ctx: KeyedProcessContext<number>, out: Collector<number>): void {
    const seen = this.#seen.value();
    if (seen === undefined) {
      this.#seen.update({ first: ride, alerted: false });
      if (ride.isStart) ctx.timerService().registerEventTimeTimer(ride.eventTime + TWO_HOURS_MS);
      return;
    }
    // The ride's other event: both are known now.
    this.#seen.clear();
    if (seen.alerted) return;
    const [start, end] = ride.isStart ? [ride, seen.first] : [seen.first, ride];
    if (!ride.isStart) ctx.timerService().deleteEventTimeTimer(start.eventTime + TWO_HOURS_MS);
    if (end.eventTime - start.eventTime > TWO_HOURS_MS) out.collect(ride.rideId);
  }

  override onTimer(_timestamp: number, ctx: OnTimerContext<number>, out: Collector<number>): void {
    // Two hours after the START and no END: alert now, and remember it so the END does not alert again.
    const seen = this.#seen.value()!;
    out.collect(ctx.getCurrentKey());
    this.#seen.update({ ...seen, alerted: true });
  }
}

/** The exercise: rideIds of rides longer than two hours. */
export function longRideAlerts(rides: DataStream<TaxiRide>): DataStream<number> {
  return rides
    .keyBy((r) => r.rideId)
    .process(new AlertFunction())
    .uid('long-rides')
    .name('long-rides');
}

export default function longRideAlertsJob(env: StreamExecutionEnvironment, args: string[]): void {
  const count = Number(args[0] ?? 1000);
  longRideAlerts(rideStream(env, count)).print();
  env.execute('Long Taxi Rides');
}
