import { WatermarkStrategy, type DataStream, type StreamExecutionEnvironment } from '@weir/api';
import { TimestampedCollectionSource } from '@weir/testing/job';
import { MiniCluster } from '@weir/testing';
import { BEGINNING } from '../../jobs/taxi/taxi-data.ts';

/** `BEGINNING` plus `minutes`: readable event times for hand-made rides and fares. */
export const at = (minutes: number): number => BEGINNING + minutes * 60_000;

/** Records with the given event times, each followed by a watermark at its time (ascending). */
export function fromTimestamped<T>(env: StreamExecutionEnvironment, records: readonly T[], time: (r: T) => number, name: string): DataStream<T> {
  return env.fromSource(TimestampedCollectionSource.ascending(records.map((r) => [r, time(r)] as const)), WatermarkStrategy.noWatermarks(), name);
}

/** Runs `job` to its end in an in-process MiniCluster and returns what CollectSink `name` collected. */
export async function runCollecting<T>(job: (env: StreamExecutionEnvironment) => void, name: string, parallelism = 2): Promise<T[]> {
  const cluster = new MiniCluster({ mode: 'in-process', taskManagers: 2 });
  await cluster.start();
  try {
    const execution = await cluster.execute(job, { parallelism });
    await execution.result();
    return execution.collected<T>(name);
  } finally {
    await cluster.close();
  }
}
