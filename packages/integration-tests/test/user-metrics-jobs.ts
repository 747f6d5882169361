import { PAUSING_SOURCE } from './pausing-source.ts';

/** The job of the user metrics test, as source text written to a temp dir outside the repo. */

/**
 * `<count> <records/s>`: a rate-limited generator (parallelism 2) emits 0 .. count-1, then goes
 * quiet without ending, so its tasks and their metrics stay. `rebalance` deals them to the map
 * 'Check: values' (parallelism 2), whose function registers one metric of each kind, each with
 * a value the test knows once every record went through:
 * - counter `seen`: records the subtask saw (summed over subtasks: count);
 * - gauge `attempt`: the attempt the subtask runs in (0, then 1 after a restart);
 * - meter `seenPerSecond` (MeterView over `seen`, 5 s): above 0 while records flow, 0 once they
 *   stopped for 5 s;
 * - histogram `value` (the last 100000 values): over all subtasks min 0, max count-1, count;
 * - `addGroup('checks').addGroup('parity', 'even' | 'odd').counter('records')`: count/2 each.
 * No checkpointing: a restarted attempt reads every record again.
 */
export const USER_METRICS = `
import { Boundedness, DescriptiveStatisticsHistogram, InputStatus, MeterView, RichMapFunction, Types, type Counter, type Histogram, type ReaderOutput, type SourceReaderContext, type SplitEnumeratorContext, type SplitSource, type SplitSourceReader, type StreamExecutionEnvironment } from '@weir/api';
import { DataGeneratorSource, DiscardingSink, RateLimiterStrategy, type GeneratorSplit } from '@weir/connectors';

${PAUSING_SOURCE}

class Check extends RichMapFunction<number, number> {
  private seen!: Counter;
  private even!: Counter;
  private odd!: Counter;
  private meter!: MeterView;
  private values!: Histogram;

  override open(): void {
    const group = this.getRuntimeContext().getMetricGroup();
    this.seen = group.counter('seen');
    group.gauge('attempt', () => this.getRuntimeContext().getAttemptNumber());
    this.meter = group.meter('seenPerSecond', new MeterView(this.seen, 5));
    this.values = group.histogram('value', new DescriptiveStatisticsHistogram(100_000));
    const checks = group.addGroup('checks');
    this.even = checks.addGroup('parity', 'even').counter('records');
    this.odd = checks.addGroup('parity', 'odd').counter('records');
  }

  map(n: number): number {
    // The meter counts through 'seen', its counter: one inc is both.
    this.meter.markEvent();
    this.values.update(n);
    (n % 2 === 0 ? this.even : this.odd).inc();
    return n;
  }
}

export default function userMetrics(env: StreamExecutionEnvironment, args: string[]) {
  const [count, rate] = args;
  env.setParallelism(2);
  env.fromSource(new PausingSource(new DataGeneratorSource((i: number) => i, Number(count), RateLimiterStrategy.perSecond(Number(rate)), Types.NUMBER)), 'numbers').uid('numbers')
    .rebalance()
    .map(new Check()).uid('check').name('Check: values')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
  env.execute('user metrics');
}
`;
