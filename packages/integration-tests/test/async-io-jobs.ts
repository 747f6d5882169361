import { fileURLToPath } from 'node:url';

/**
 * The async I/O jobs of async-io.test.ts (issue 26 item 4).
 *
 * ENRICH: events 0 … n-1 from one generator split, enriched by an HTTP lookup
 * (`GET /enrich?i=…` of the test's server, answering `{ v: i * 3 }`) through
 * AsyncDataStream.orderedWaitWithRetry: each attempt aborts after 300 ms and is tried again
 * after 50 ms (the server never answers the first request of some indexes), the operator's
 * timeout is far beyond. The keyed CheckOrder (check-order.ts) after it writes `i v in-order`.
 *
 * args: output dir, events, events/s, server URL, checkpoint interval ms
 *
 * NEVER: an async function that never completes, with a 500 ms timeout and no restarts.
 *
 * args: output dir
 *
 * BURST: keys 0 … n-1 each set an event-time timer that the end of input fires, all in one
 * watermark, into AsyncDataStream.unorderedWait (capacity 5) chained behind the keyed
 * function: the timers stop while the async operator is at capacity. Each key's lookup
 * (`GET /burst?i=…`, answering `{ v: i * 3 }`) is written as `i v`.
 *
 * args: output dir, keys, server URL
 */

/** check-order.ts, which the job strings import by absolute path (they are bundled from a temporary file). */
const CHECK_ORDER = JSON.stringify(fileURLToPath(new URL('./check-order.ts', import.meta.url)));

export const ENRICH = `
import { StreamExecutionEnvironment, AsyncDataStream, AsyncRetryStrategies, RetryPredicates, TimeUnit } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';
import { CheckOrder, type Enriched } from ${CHECK_ORDER};

export default function enrich(env: StreamExecutionEnvironment, args: string[]) {
  const [output, events, rate, server, interval] = args;
  env.setParallelism(1);
  env.enableCheckpointing(Number(interval));
  const retry = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<Enriched>(20, 50).ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build();
  const indexes = env.fromSource(new DataGeneratorSource((i: number) => i, Number(events), RateLimiterStrategy.perSecond(Number(rate))), 'indexes').uid('indexes');
  const enriched = AsyncDataStream.orderedWaitWithRetry(
    indexes,
    async (i: number): Promise<Enriched[]> => {
      const response = await fetch(server + '/enrich?i=' + i, { signal: AbortSignal.timeout(300) });
      if (!response.ok) throw new Error('lookup of ' + i + ' answered ' + response.status);
      const { v } = (await response.json()) as { v: number };
      return [{ i, v }];
    },
    30, TimeUnit.SECONDS, 20, retry,
  ).uid('enrich');
  enriched
    .keyBy(() => 'all')
    .process(new CheckOrder()).uid('check-order')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

export const NEVER = `
import { StreamExecutionEnvironment, AsyncDataStream, RestartStrategies } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

export default function never(env: StreamExecutionEnvironment, args: string[]) {
  env.setParallelism(1);
  env.setRestartStrategy(RestartStrategies.noRestart());
  const indexes = env.fromSource(new DataGeneratorSource((i: number) => i, 10, RateLimiterStrategy.noOp()), 'indexes');
  AsyncDataStream.unorderedWait(indexes, (_i: number) => new Promise<string[]>(() => {}), 500)
    .sinkTo(FileSink.forRowFormat(args[0]!, new SimpleStringEncoder<string>()).build());
}
`;

export const BURST = `
import { StreamExecutionEnvironment, AsyncDataStream, TimeUnit, KeyedProcessFunction, WatermarkStrategy,
  type Collector, type KeyedProcessContext, type OnTimerContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

class FireAtEnd extends KeyedProcessFunction<number, number, number> {
  processElement(_i: number, ctx: KeyedProcessContext<number>, _out: Collector<number>): void {
    ctx.timerService().registerEventTimeTimer(1000);
  }
  override onTimer(_t: number, ctx: OnTimerContext<number>, out: Collector<number>): void {
    out.collect(ctx.getCurrentKey());
  }
}

export default function burst(env: StreamExecutionEnvironment, args: string[]) {
  const [output, keys, server] = args;
  env.setParallelism(1);
  env.enableCheckpointing(300);
  const fired = env
    .fromSource(new DataGeneratorSource((i: number) => i, Number(keys), RateLimiterStrategy.noOp()), 'keys')
    .assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<number>().withTimestampAssigner(() => 1))
    .keyBy((i: number) => i)
    .process(new FireAtEnd());
  AsyncDataStream.unorderedWait(
    fired,
    async (i: number): Promise<string[]> => {
      const response = await fetch(server + '/burst?i=' + i);
      const { v } = (await response.json()) as { v: number };
      return [i + ' ' + v];
    },
    60, TimeUnit.SECONDS, 5,
  ).sinkTo(FileSink.forRowFormat(output!, new SimpleStringEncoder<string>()).build());
}
`;

export function expectedEnriched(events: number): string[] {
  return Array.from({ length: events }, (_, i) => `${i} ${i * 3} in-order`);
}
