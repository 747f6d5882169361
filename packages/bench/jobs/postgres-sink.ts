// `pnpm bench postgres`: <rows> rows upserted into bench_sink (id, v) through the EXACTLY_ONCE PostgresSink.
// args: <url> <rows>; parallelism from `weir run -p`.
import { RateLimiterStrategy, DataGeneratorSource, DeliveryGuarantee, PostgresSink } from '@weir/connectors';
import type { StreamExecutionEnvironment } from '@weir/api';

export default function postgresSinkBench(env: StreamExecutionEnvironment, args: string[]) {
  const [url, rows] = args as [string, string];
  env.enableCheckpointing(1000);
  env.getCheckpointConfig().setMinPauseBetweenCheckpoints(100);
  env.fromSource(new DataGeneratorSource((i: number) => i, Number(rows), RateLimiterStrategy.noOp()), 'rows').uid('rows')
    .sinkTo(PostgresSink.builder<number>().withUrl(url).withUpsert('bench_sink', ['id'], (i: number) => ({ id: i, v: `row ${i}` })).setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).build()).uid('sink');
}
