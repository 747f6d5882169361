/** Job modules the tests submit, as source text: each is written to a temp dir outside the repo. */

export const WORD_COUNT = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { FileSource, TextLineInputFormat, FileSink, SimpleStringEncoder } from '@weir/connectors';

class CountPerWord extends KeyedProcessFunction<string, string, string> {
  private count!: ValueState<number>;
  override open(): void {
    this.count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER));
  }
  processElement(word: string, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const next = (this.count.value() ?? 0) + 1;
    this.count.update(next);
    out.collect(word + ' ' + next);
  }
}

export default function wordCount(env: StreamExecutionEnvironment, args: string[]) {
  env.setParallelism(2);
  env.fromSource(FileSource.forRecordStreamFormat(new TextLineInputFormat(), args[0]).build(), 'lines').uid('lines')
    .flatMap((line: string, out: Collector<string>) => {
      for (const w of line.toLowerCase().split(/[^a-z']+/)) if (w) out.collect(w);
    }).uid('split')
    .keyBy((w: string) => w)
    .process(new CountPerWord()).uid('count')
    .sinkTo(FileSink.forRowFormat(args[1], new SimpleStringEncoder<string>()).build()).uid('sink');
  env.execute('word count');
}
`;

/** An endless, rate-limited generator: something to cancel. */
export const ENDLESS = `
import { StreamExecutionEnvironment, Types } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

export default function endless(env: StreamExecutionEnvironment) {
  env.fromSource(new DataGeneratorSource((i: number) => i, Number.POSITIVE_INFINITY, RateLimiterStrategy.perSecond(1000), Types.NUMBER), 'numbers').uid('numbers')
    .rebalance()
    .map((n: number) => n * 2).uid('double')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

/** A map that throws on record 4242. */
export const THROWING = `
import { StreamExecutionEnvironment, Types } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

export default function throwing(env: StreamExecutionEnvironment) {
  env.setParallelism(2);
  env.fromSource(new DataGeneratorSource((i: number) => i, 100000, RateLimiterStrategy.noOp(), Types.NUMBER), 'numbers').uid('numbers')
    .keyBy((n: number) => n % 10)
    .map((n: number) => { if (n === 4242) throw new Error('boom at record 4242'); return n; }).uid('fragile').name('fragile map')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

/** Parallelism 5: more slots than the test cluster has. */
export const TOO_WIDE = `
import { StreamExecutionEnvironment, Types } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

export default function tooWide(env: StreamExecutionEnvironment) {
  env.setParallelism(5);
  env.fromSource(new DataGeneratorSource((i: number) => i, 10, RateLimiterStrategy.noOp(), Types.NUMBER), 'numbers')
    .sinkTo(new DiscardingSink<number>());
}
`;

export const NO_DEFAULT_EXPORT = `
import { StreamExecutionEnvironment } from '@weir/api';
export function job(env: StreamExecutionEnvironment) {}
`;

/**
 * A fast source (p=1) feeding a sink that sleeps 1 ms per record (p=2, so one channel is
 * remote). The source writes how many records it generated, each sink subtask how many it
 * consumed, into files under args[0].
 */
export const SLOW_SINK = `
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StreamExecutionEnvironment, Types, type Sink, type SinkWriter, type ConnectorContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy } from '@weir/connectors';

class SleepySink implements Sink<string> {
  constructor(private readonly dir: string) {}
  createWriter(ctx: ConnectorContext): SinkWriter<string> {
    let consumed = 0;
    const file = join(this.dir, 'consumed-' + ctx.subtaskIndex);
    return {
      write: () => {
        consumed++;
        if (consumed % 50 === 0) writeFileSync(file, String(consumed));
        return new Promise<void>((resolve) => setTimeout(resolve, 1));
      },
      flush: () => {},
      close: () => {},
    };
  }
}

export default function slowSink(env: StreamExecutionEnvironment, args: string[]) {
  const dir = args[0]!;
  const padding = 'x'.repeat(100);
  env.fromSource(new DataGeneratorSource((i: number) => {
    if (i % 100 === 0) writeFileSync(join(dir, 'generated'), String(i));
    return padding + i;
  }, Number.POSITIVE_INFINITY, RateLimiterStrategy.noOp(), Types.STRING), 'fast source').setParallelism(1)
    .rebalance()
    .sinkTo(new SleepySink(dir)).setParallelism(2).name('sleepy sink');
}
`;
