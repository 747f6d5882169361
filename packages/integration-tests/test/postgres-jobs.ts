import { RUNNING_SUM } from './checkpoint-jobs.ts';

/**
 * Jobs of the Postgres process tests. Every job takes the PostgreSQL URL first.
 *
 * RUNNING_SUMS_INTO_POSTGRES: the running-sums job (its output known exactly, see
 * checkpoint-jobs.ts) writing each line into table `sums (line text)` (no key: a duplicate
 * would stay) through an EXACTLY_ONCE PostgresSink.
 * args: url, records, records/s, checkpoint interval ms
 */
export const RUNNING_SUMS_INTO_POSTGRES = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, RestartStrategies,
  type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, PostgresSink, DeliveryGuarantee } from '@weir/connectors';

${RUNNING_SUM}
export default function runningSumsIntoPostgres(env: StreamExecutionEnvironment, args: string[]) {
  const [url, records, rate, interval] = args;
  const n = Number(records);
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1000, 200));
  env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 7), i }), n, RateLimiterStrategy.perSecond(Number(rate))), 'events').uid('events')
    .keyBy((e: Event) => e.key)
    .process(new RunningSum()).uid('sums')
    .sinkTo(PostgresSink.builder<string>()
      .withUrl(url)
      .withStatement('INSERT INTO sums (line) VALUES ($1)', (line: string) => [line])
      .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
      .withBatchSize(500)
      .build()).uid('sink');
}
`;
