// `pnpm bench postgres`: the changes of bench_cdc from an existing slot (startupOptions latest); the row with id <last>
// goes into bench_done, so the bench sees when every change before it was read.
// args: <port> <last id>
import { PostgresCdcSource, PostgresSink, type ChangeEvent } from '@weir/connectors';
import type { StreamExecutionEnvironment } from '@weir/api';

export default function postgresCdcBench(env: StreamExecutionEnvironment, args: string[]) {
  const [port, last] = args as [string, string];
  env.setParallelism(1);
  env.enableCheckpointing(1000);
  const changes = PostgresCdcSource.builder().hostname('127.0.0.1').port(Number(port)).database('postgres').tableList('bench_cdc').slotName('bench_weir').startupOptions('latest').build();
  env.fromSource(changes, 'cdc').uid('cdc')
    .filter((e: ChangeEvent) => e.after?.['id'] === Number(last)).uid('last')
    .sinkTo(PostgresSink.builder<ChangeEvent>().withUrl(`postgres://127.0.0.1:${port}/postgres`).withChangelog('bench_done', ['id']).withBatchSize(1).build()).uid('done');
}
