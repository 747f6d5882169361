import { AsyncDataStream, KeyedProcessFunction, TimeUnit, WatermarkStrategy, type Collector, type KeyedProcessContext, type OnTimerContext } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { CollectingSink, runJob } from '../../testing/harness.ts';

const CAPACITY = 4;
/** More than one slice of timers (TIMERS_PER_SLICE), so a watermark fires them in several steps. */
const KEYS = 10_000;

/** What the test sees of the chain: timers fired upstream, and calls of the async function. */
const seen = { fired: 0, resolved: 0, inFlight: 0, maxInFlight: 0, maxQueued: 0 };

/** One timer per key, in the event-time domain (one watermark makes all due) or the processing-time one (all due at once). */
class EmitOnTimer extends KeyedProcessFunction<number, number, number> {
  constructor(private readonly domain: 'event' | 'processing') {
    super();
  }
  override processElement(_value: number, ctx: KeyedProcessContext<number>, _out: Collector<number>): void {
    if (this.domain === 'event') ctx.timerService().registerEventTimeTimer(1000);
    else ctx.timerService().registerProcessingTimeTimer(0);
  }
  override onTimer(_timestamp: number, ctx: OnTimerContext<number>, out: Collector<number>): void {
    seen.fired++;
    // Records handed to the async operator and not resolved yet: its queue, in flight or waiting.
    seen.maxQueued = Math.max(seen.maxQueued, seen.fired - seen.resolved);
    out.collect(ctx.getCurrentKey());
  }
}

function enrich(input: number): Promise<number[]> {
  seen.maxInFlight = Math.max(seen.maxInFlight, ++seen.inFlight);
  return new Promise((resolve) =>
    setImmediate(() => {
      seen.inFlight--;
      seen.resolved++;
      resolve([input * 2]);
    }),
  );
}

describe('async I/O chained behind an operator whose timers emit many records at once', () => {
  it.each([
    ['ordered', 'event'],
    ['unordered', 'event'],
  ] as const)('%s, %s-time timers: the chain stops firing them while the async operator is at capacity, and every result comes out', async (mode, domain) => {
    Object.assign(seen, { fired: 0, resolved: 0, inFlight: 0, maxInFlight: 0, maxQueued: 0 });
    const sink = new CollectingSink<number>();
    const job = await runJob((env) => {
      const fired = env
        .fromCollection(Array.from({ length: KEYS }, (_, i) => i))
        .assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<number>().withTimestampAssigner(() => 1))
        .keyBy((n) => n)
        .process(new EmitOnTimer(domain));
      const wait = mode === 'ordered' ? AsyncDataStream.orderedWait : AsyncDataStream.unorderedWait;
      wait(fired, enrich, 60_000, TimeUnit.MILLISECONDS, CAPACITY).sinkTo(sink);
    });
    await job.whenAllTerminal();
    // Chained: the timers' outputs reach the async operator in the same turn.
    expect(job.jobGraph.vertices.map((v) => v.name)).toContain('KeyedProcess -> async wait operator -> Sink');
    expect(seen.maxInFlight).toBeLessThanOrEqual(CAPACITY);
    // Each timer emits one record; the timers stop once `capacity` are queued. Without back pressure it was all 10,000.
    expect(seen.maxQueued).toBeLessThanOrEqual(CAPACITY);
    expect([...sink.values()].sort((a, b) => a - b)).toEqual(Array.from({ length: KEYS }, (_, i) => i * 2));
  });
});
