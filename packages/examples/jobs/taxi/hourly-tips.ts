// Flink's "Learn Flink" exercise Hourly Tips (flink-training's HourlyTipsExercise), in Weir:
// the driver with the most tips in each hour of event time. Fares are keyed by driver and
// summed per one-hour tumbling window (a ProcessWindowFunction over a reduce, so the window
// keeps one running sum per driver, not every fare); then a windowAll over the same hours keeps
// the largest sum.
//
//   pnpm weir run packages/examples/jobs/taxi/hourly-tips.ts -- [rides]
import {
  ProcessWindowFunction,
  Time,
  TumblingEventTimeWindows,
  type Collector,
  type DataStream,
  type ProcessWindowContext,
  type StreamExecutionEnvironment,
  type TimeWindow,
} from '@weir/api';
import { fareStream, type TaxiFare } from './taxi-data.ts';

/** One driver's tips in one hour (flink-training emits a Tuple3 of window end, driverId and sum). */
export interface HourlyTips {
  readonly windowEnd: number;
  readonly driverId: number;
  readonly tipCents: number;
}

const HOUR = Time.hours(1);

/** Labels a driver's summed tips with the driver and the window's end. */
export class AddTipsWindowInfo extends ProcessWindowFunction<number, HourlyTips, number, TimeWindow> {
  process(driverId: number, context: ProcessWindowContext<TimeWindow>, sums: Iterable<number>, out: Collector<HourlyTips>): void {
    for (const tipCents of sums) out.collect({ windowEnd: context.window().getEnd(), driverId, tipCents });
  }
}

/** The exercise: per hour, the driver with the most tips (on a tie, the one whose sum came first). */
export function hourlyTips(fares: DataStream<TaxiFare>): DataStream<HourlyTips> {
  return fares
    .map((f) => ({ driverId: f.driverId, tipCents: f.tipCents }))
    .keyBy((t) => t.driverId)
    .window(TumblingEventTimeWindows.of(HOUR))
    .aggregate(
      { createAccumulator: () => 0, add: (t: { tipCents: number }, acc: number) => acc + t.tipCents, getResult: (acc: number) => acc, merge: (a: number, b: number) => a + b },
      new AddTipsWindowInfo(),
    )
    .name('tips per driver and hour')
    .windowAll(TumblingEventTimeWindows.of(HOUR))
    .reduce((a, b) => (b.tipCents > a.tipCents ? b : a))
    .name('most tips per hour');
}

export default function hourlyTipsJob(env: StreamExecutionEnvironment, args: string[]): void {
  const count = Number(args[0] ?? 1000);
  hourlyTips(fareStream(env, count))
    .map((t) => `${new Date(t.windowEnd).toISOString()} driver ${t.driverId} tips ${(t.tipCents / 100).toFixed(2)}`)
    .print();
  env.execute('Hourly Tips');
}
