// PostgreSQL to PostgreSQL, exactly-once: a PostgresCdcSource reads table `accounts (id int
// primary key, balance int)` (a snapshot, then its changes), keyBy(id mod 10) keeps each
// group's accounts and their balances in MapState (and the group's count and total), and an EXACTLY_ONCE PostgresSink upserts
// `summary (grp, accounts, total)`. Each account's last balance replaces its earlier one, so a
// change that comes twice (see the connectors README: a failure during the snapshot) counts
// once: `summary` ends equal to SELECT id % 10, count(*), sum(balance) FROM accounts GROUP BY 1.
//
//   pnpm weir run packages/examples/jobs/postgres-summary.ts -- <hostname> <port> <database> <slot> \
//     <summary url (jdbc:postgresql://host:port/database)> [checkpoint ms]
import {
  KeyedProcessFunction,
  MapStateDescriptor,
  RestartStrategies,
  Types,
  type Collector,
  type KeyedProcessContext,
  ValueStateDescriptor,
  type MapState,
  type StreamExecutionEnvironment,
  type ValueState,
} from '@weir/api';
import { DeliveryGuarantee, PostgresCdcSource, PostgresSink, type ChangeEvent } from '@weir/connectors';

type Summary = { grp: number; accounts: number; total: number };

const idOf = (event: ChangeEvent): number => Number((event.after ?? event.before)!['id']);

class GroupSummary extends KeyedProcessFunction<number, ChangeEvent, Summary> {
  private balances!: MapState<number, number>;
  private accounts!: ValueState<number>;
  private total!: ValueState<number>;

  override open(): void {
    const context = this.getRuntimeContext();
    this.balances = context.getMapState(new MapStateDescriptor('balances', Types.NUMBER, Types.NUMBER));
    this.accounts = context.getState(new ValueStateDescriptor('accounts', Types.NUMBER));
    this.total = context.getState(new ValueStateDescriptor('total', Types.NUMBER));
  }

  processElement(event: ChangeEvent, ctx: KeyedProcessContext<number>, out: Collector<Summary>): void {
    const id = idOf(event);
    const before = this.balances.get(id);
    const after = event.op === 'd' ? undefined : Number(event.after!['balance']);
    if (after === undefined) this.balances.remove(id);
    else this.balances.put(id, after);
    const accounts = (this.accounts.value() ?? 0) + (after === undefined ? 0 : 1) - (before === undefined ? 0 : 1);
    const total = (this.total.value() ?? 0) + (after ?? 0) - (before ?? 0);
    this.accounts.update(accounts);
    this.total.update(total);
    out.collect({ grp: ctx.getCurrentKey(), accounts, total });
  }
}

export default function postgresSummary(env: StreamExecutionEnvironment, args: string[]): void {
  const [hostname, port, database, slot, summaryUrl, interval = '1000'] = args;
  if (hostname === undefined || port === undefined || database === undefined || slot === undefined || summaryUrl === undefined) {
    throw new Error('usage: postgres-summary.ts <hostname> <port> <database> <slot> <summary url> [checkpoint ms]');
  }
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  // A checkpoint's COMMIT PREPARED must come before the next checkpoint's barrier (see the connectors README).
  env.getCheckpointConfig().setMinPauseBetweenCheckpoints(100);
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1000, 500));
  const accounts = PostgresCdcSource.builder().hostname(hostname).port(Number(port)).database(database).tableList('public.accounts').slotName(slot).build();
  env.fromSource(accounts, 'accounts-cdc').uid('accounts-cdc')
    .keyBy((event: ChangeEvent) => idOf(event) % 10)
    .process(new GroupSummary()).uid('group-summary')
    .sinkTo(PostgresSink.builder<Summary>().withUrl(summaryUrl).withUpsert('summary', ['grp'], (s: Summary) => s).setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).build()).uid('summary');
}
