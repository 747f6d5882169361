/**
 * An event-time job whose committed output is known in advance, for the exactly-once window
 * tests: a rate-limited DataGeneratorSource (two readers) emits events out of order within
 * OUT_OF_ORDERNESS_MS of their reader's stream, so no event is ever late, whatever the
 * watermark's timing, a failure or a restore; every tumbling window and every session then
 * fires once, with all its events. The generator is one function, embedded in the job's
 * source and used by the expectations here.
 */

export const OUT_OF_ORDERNESS_MS = 500;
export const TUMBLING_MS = 1_000;
export const SESSION_GAP_MS = 500;

export interface WindowEvent {
  readonly key: string;
  readonly time: number;
}

/**
 * Event `i` of `n`: reader 0 emits [0, n/2), reader 1 [n/2, n), both over the same span of
 * event time, 20 ms per record. Even records go to the tumbling keys t0..t4; odd ones to the
 * session keys s0..s3, ten in a row per key (40 ms apart), so each key has a burst every 1.6 s:
 * a session of both readers' bursts (20 events), 1 s of silence before the next. Every event
 * is up to 199 ms earlier than its place: out of order, within the bound.
 */
export function windowEvent(i: number, n: number): WindowEvent {
  const half = Math.floor(n / 2);
  const j = i < half ? i : i - half;
  let h = Math.imul(i ^ 0x2545f491, 0x9e3779b1);
  h = (h ^ (h >>> 16)) >>> 0;
  const time = j * 20 - (h % 200);
  if (j % 2 === 0) return { key: `t${(j >> 1) % 5}`, time };
  return { key: `s${Math.floor((j >> 1) / 10) % 4}`, time };
}

/** args: output dir, records, records/s, checkpoint interval ms, backend ('heap' | 'level-incremental'), checkpoint dir */
export const WINDOWED_COUNTS = `
import { StreamExecutionEnvironment, CheckpointingMode, FsStateBackend, LevelStateBackend, WatermarkStrategy, TumblingEventTimeWindows,
  EventTimeSessionWindows, ProcessWindowFunction, type AggregateFunction, type Collector, type ProcessWindowContext, type TimeWindow } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

type WindowEvent = { key: string; time: number };
const windowEvent = ${windowEvent.toString()};

const count: AggregateFunction<WindowEvent, number, number> = { createAccumulator: () => 0, add: (_e, n) => n + 1, getResult: (n) => n, merge: (a, b) => a + b };

class Label extends ProcessWindowFunction<number, string, string, TimeWindow> {
  constructor(private readonly kind: string) { super(); }
  process(key: string, ctx: ProcessWindowContext<TimeWindow>, counts: Iterable<number>, out: Collector<string>): void {
    for (const n of counts) out.collect(this.kind + ' ' + key + ' ' + ctx.window().start + ' ' + ctx.window().end + ' ' + n);
  }
}

export default function windowedCounts(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, backend, checkpointDir] = args;
  const n = Number(records);
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.setStateBackend(backend === 'heap' ? new FsStateBackend(checkpointDir) : new LevelStateBackend(checkpointDir, true));
  const events = env.fromSource(
    new DataGeneratorSource((i: number) => windowEvent(i, n), n, RateLimiterStrategy.perSecond(Number(rate))),
    WatermarkStrategy.forBoundedOutOfOrderness<WindowEvent>(${OUT_OF_ORDERNESS_MS}).withTimestampAssigner((e) => e.time),
    'events').uid('events');
  const tumbling = events.filter((e) => e.key.startsWith('t')).uid('tumbling-keys')
    .keyBy((e) => e.key).window(TumblingEventTimeWindows.of(${TUMBLING_MS})).aggregate(count, new Label('tumbling')).uid('tumbling');
  const sessions = events.filter((e) => e.key.startsWith('s')).uid('session-keys')
    .keyBy((e) => e.key).window(EventTimeSessionWindows.withGap(${SESSION_GAP_MS})).aggregate(count, new Label('session')).uid('sessions');
  tumbling.union(sessions).sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/** The lines WINDOWED_COUNTS commits for `n` records, sorted: every tumbling window and every session of every key, once. */
export function expectedWindowedCounts(n: number): string[] {
  const tumbling = new Map<string, number>();
  const sessionTimes = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const { key, time } = windowEvent(i, n);
    if (key.startsWith('t')) {
      const start = time - (((time % TUMBLING_MS) + TUMBLING_MS) % TUMBLING_MS);
      const id = `tumbling ${key} ${start} ${start + TUMBLING_MS}`;
      tumbling.set(id, (tumbling.get(id) ?? 0) + 1);
    } else {
      let times = sessionTimes.get(key);
      if (times === undefined) sessionTimes.set(key, (times = []));
      times.push(time);
    }
  }
  const lines = [...tumbling].map(([id, count]) => `${id} ${count}`);
  for (const [key, times] of sessionTimes) {
    times.sort((a, b) => a - b);
    let start = times[0]!;
    let end = start + SESSION_GAP_MS;
    let count = 0;
    for (const t of times) {
      // [t, t + gap) merges with the session when they overlap or touch.
      if (t > end) {
        lines.push(`session ${key} ${start} ${end} ${count}`);
        start = t;
        count = 0;
      }
      end = Math.max(end, t + SESSION_GAP_MS);
      count++;
    }
    lines.push(`session ${key} ${start} ${end} ${count}`);
  }
  return lines.sort();
}
