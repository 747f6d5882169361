/**
 * An event-time job with an evictor and a continuous event-time trigger whose committed output
 * is known in advance, for the exactly-once test of evicting windows. One reader emits events
 * in time order, each followed by (or, in Weir, preceded by) a watermark one ms below it, so a
 * window's fire time passes exactly when the first event after it is read: that event is
 * always a tick (filtered out before the window, a clock and nothing else), so what a key's
 * window holds when it fires does not depend on timing, a failure or a restore.
 */

export const WINDOW_MS = 1_000;
export const FIRE_INTERVAL_MS = 250;
export const EVICT_MS = 100;

export interface Tick {
  readonly key: string;
  readonly time: number;
}

/** Event `i`: 10 ms apart; the one just after each fire time (a multiple of 250 ms) is a tick, the others go to k0..k2 in turn. */
export function tick(i: number): Tick {
  const time = i * 10;
  return { key: i % 25 === 1 ? 'tick' : `k${i % 3}`, time };
}

/** args: output dir, records, records/s, checkpoint interval ms, checkpoint dir */
export const EVICTING_WINDOWS = `
import { StreamExecutionEnvironment, CheckpointingMode, FsStateBackend, WatermarkStrategy, Watermark, TumblingEventTimeWindows,
  ContinuousEventTimeTrigger, TimeEvictor, ProcessWindowFunction, type Collector, type ProcessWindowContext, type TimeWindow } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

type Tick = { key: string; time: number };
const tick = ${tick.toString()};

/** "<key> <window start> <times left after eviction>" per firing. */
class Remaining extends ProcessWindowFunction<Tick, string, string, TimeWindow> {
  process(key: string, ctx: ProcessWindowContext<TimeWindow>, ticks: Iterable<Tick>, out: Collector<string>): void {
    out.collect(key + ' ' + ctx.window().start + ' ' + [...ticks].map((t) => t.time).join(','));
  }
}

export default function evictingWindows(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, checkpointDir] = args;
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.setStateBackend(new FsStateBackend(checkpointDir));
  const everyEvent = WatermarkStrategy.forGenerator<Tick>(() => ({
    onEvent: (_event, timestamp, out) => out.emitWatermark(new Watermark(timestamp - 1)),
    onPeriodicEmit: () => {},
  })).withTimestampAssigner((t) => t.time);
  env.fromSource(new DataGeneratorSource(tick, Number(records), RateLimiterStrategy.perSecond(Number(rate))), everyEvent, 'ticks').setParallelism(1).uid('ticks')
    .filter((t) => t.key !== 'tick').setParallelism(1).uid('data')
    .keyBy((t) => t.key)
    .window(TumblingEventTimeWindows.of(${WINDOW_MS}))
    .trigger(ContinuousEventTimeTrigger.of(${FIRE_INTERVAL_MS}))
    .evictor(TimeEvictor.of(${EVICT_MS}))
    .process(new Remaining()).uid('windows')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/**
 * The lines EVICTING_WINDOWS commits for `n` records, sorted. Each key's window fires at
 * start + 250, + 500, + 750 and at its end (start + 999) with the key's events up to that time;
 * TimeEvictor(100) leaves those within 100 ms of the newest. What earlier firings evicted is
 * older still, so it is never missed.
 */
export function expectedRemaining(n: number): string[] {
  const windows = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const { key, time } = tick(i);
    if (key === 'tick') continue;
    const id = `${key} ${time - (time % WINDOW_MS)}`;
    let times = windows.get(id);
    if (times === undefined) windows.set(id, (times = []));
    times.push(time);
  }
  const lines: string[] = [];
  for (const [id, times] of windows) {
    const start = Number(id.split(' ')[1]);
    const fireTimes = [start + FIRE_INTERVAL_MS, start + 2 * FIRE_INTERVAL_MS, start + 3 * FIRE_INTERVAL_MS, start + WINDOW_MS - 1];
    for (const fireTime of fireTimes) {
      const arrived = times.filter((t) => t <= fireTime);
      const newest = arrived.at(-1)!;
      lines.push(`${id} ${arrived.filter((t) => t > newest - EVICT_MS).join(',')}`);
    }
  }
  return lines.sort();
}
