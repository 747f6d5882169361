/**
 * The running-sums job of checkpoint-jobs.ts for the restore tests, with the keyed operator's
 * parallelism (and optionally its max parallelism) as arguments. The source stays at 2, since
 * each DataGeneratorSource reader keeps its own position, and so does the sink, whose writer
 * state names its subtask's part files.
 *
 * args: output dir, records, records/s, checkpoint interval ms, checkpoint dir, sums parallelism, [sums max parallelism]
 */

import { RUNNING_SUM } from './checkpoint-jobs.ts';
export const RESCALABLE_SUMS = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, FsStateBackend, ExternalizedCheckpointCleanup,
  type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

${RUNNING_SUM}

export default function rescalableSums(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, checkpointDir, sumsParallelism, sumsMaxParallelism] = args;
  const n = Number(records);
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().enableExternalizedCheckpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
  env.setStateBackend(new FsStateBackend(checkpointDir));
  const sums = env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 7), i }), n, RateLimiterStrategy.perSecond(Number(rate))), 'events').uid('events')
    .keyBy((e: Event) => e.key)
    .process(new RunningSum()).uid('sums').setParallelism(Number(sumsParallelism));
  if (sumsMaxParallelism) sums.setMaxParallelism(Number(sumsMaxParallelism));
  sums.sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink').setParallelism(2);
}
`;

/** A job of another shape: none of the running-sums operators' uids. args: output dir */
export const OTHER_SHAPE = `
import { StreamExecutionEnvironment } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

export default function otherShape(env: StreamExecutionEnvironment) {
  env.setParallelism(2);
  env.fromSource(new DataGeneratorSource((i: number) => i, 10, RateLimiterStrategy.perSecond(10)), 'numbers').uid('numbers')
    .sinkTo(new DiscardingSink<number>()).uid('discard');
}
`;
