import { RUNNING_SUM } from './checkpoint-jobs.ts';

/**
 * Jobs of the Postgres process tests. Every job takes the PostgreSQL URL first.
 *
 * RUNNING_SUMS_INTO_POSTGRES: the running-sums job (its output known exactly, see
 * checkpoint-jobs.ts) writing each line into table `sums (line text)` (no key: a duplicate
 * would stay) through an EXACTLY_ONCE PostgresSink; its parallelism is weir run's -p.
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
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setMinPauseBetweenCheckpoints(100);
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

/**
 * CDC_MATERIALIZE: PostgresCdcSource (snapshot, then changes) of table `accounts` keyed by id
 * into the EXACTLY_ONCE changelog PostgresSink of table `accounts_copy` in another database.
 * args: source url parts (port, database), target url, slot, checkpoint interval ms, and
 * optionally 'drop' (dropSlotOnStop(true))
 */
export const CDC_MATERIALIZE = `
import { StreamExecutionEnvironment, RestartStrategies } from '@weir/api';
import { PostgresCdcSource, PostgresSink, DeliveryGuarantee, type ChangeEvent } from '@weir/connectors';

export default function materialize(env: StreamExecutionEnvironment, args: string[]) {
  const [port, database, targetUrl, slot, interval, onStop] = args;
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  // The sink's COMMIT PREPARED of a checkpoint must come before the next checkpoint's barrier (see the connectors README).
  env.getCheckpointConfig().setMinPauseBetweenCheckpoints(100);
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1000, 200));
  const changes = PostgresCdcSource.builder().hostname('127.0.0.1').port(Number(port)).database(database).tableList('public.accounts').slotName(slot).dropSlotOnStop(onStop === 'drop').build();
  env.fromSource(changes, 'accounts-cdc').uid('cdc')
    .keyBy((e: ChangeEvent) => String((e.after ?? e.before)!['id']))
    .sinkTo(PostgresSink.builder<ChangeEvent>()
      .withUrl(targetUrl)
      .withChangelog('accounts_copy', ['id'])
      .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
      .withBatchSize(1000)
      .build()).uid('copy');
}
`;

/**
 * SINK_ROWS: `count` rows (id, v) upserted into `table` through a PostgresSink; no restarts,
 * so a bad setting ends the job FAILED with its cause.
 * args: url, table, username, password ('' for none), guarantee, count
 */
export const SINK_ROWS = `
import { StreamExecutionEnvironment, RestartStrategies } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, PostgresSink, DeliveryGuarantee } from '@weir/connectors';

export default function sinkRows(env: StreamExecutionEnvironment, args: string[]) {
  const [url, table, username, password, guarantee, count] = args;
  env.setParallelism(1);
  env.setRestartStrategy(RestartStrategies.noRestart());
  const builder = PostgresSink.builder<number>().withUrl(url).withUsername(username)
    .withUpsert(table, ['id'], (i: number) => ({ id: i, v: 'row ' + i }))
    .setDeliveryGuarantee(guarantee === 'EXACTLY_ONCE' ? DeliveryGuarantee.EXACTLY_ONCE : DeliveryGuarantee.AT_LEAST_ONCE);
  if (password) builder.withPassword(password);
  env.fromSource(new DataGeneratorSource((i: number) => i, Number(count), RateLimiterStrategy.noOp()), 'numbers').uid('numbers')
    .sinkTo(builder.build()).uid('sink');
}
`;

/**
 * CDC_DISCARD: PostgresCdcSource of `table` into a DiscardingSink; no restarts.
 * args: port, database, table, slot
 */
export const CDC_DISCARD = `
import { StreamExecutionEnvironment, RestartStrategies } from '@weir/api';
import { PostgresCdcSource, DiscardingSink } from '@weir/connectors';

export default function cdcDiscard(env: StreamExecutionEnvironment, args: string[]) {
  const [port, database, table, slot] = args;
  env.setParallelism(1);
  env.enableCheckpointing(500);
  env.setRestartStrategy(RestartStrategies.noRestart());
  env.fromSource(PostgresCdcSource.builder().hostname('127.0.0.1').port(Number(port)).database(database).tableList(table).slotName(slot).build(), 'cdc').uid('cdc')
    .sinkTo(new DiscardingSink()).uid('discard');
}
`;
