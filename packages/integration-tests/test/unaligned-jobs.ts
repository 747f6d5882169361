/**
 * Jobs for the unaligned-checkpoint tests: the running sums of checkpoint-jobs.ts behind a
 * slow stage, so the channels stay full (backpressure) and barriers must overtake the queued
 * buffers to be quick.
 */

import { RUNNING_SUM } from './checkpoint-jobs.ts';

/**
 * A running sum per key (that spoils each event after use), then a rebalance to a map that
 * busy-waits `slowMs` per record (slower than the source), then the FileSink. Every output line is still fixed by its key's order.
 * args: output dir, records, records/s, checkpoint interval ms, slow ms per record, aligned-checkpoint timeout ms (-1: unaligned from the start), mode
 */
export const BACKPRESSURED_SUMS = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, CheckpointingMode,
  type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

${RUNNING_SUM}

/**
 * RunningSum that then spoils the event it received (allowed: only a producer must not change a
 * record after emitting it). Under object reuse the event is the source's own object: channel
 * state must hold it as it was emitted, or a restore replays the spoiled event (a line with -1).
 */
class SpoilingRunningSum extends RunningSum {
  override processElement(e: Event, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    super.processElement(e, ctx, out);
    e.i = -1;
  }
}

export default function backpressuredSums(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, slowMs, alignedTimeout, mode] = args;
  const n = Number(records);
  const slow = Number(slowMs);
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(mode === 'AT_LEAST_ONCE' ? CheckpointingMode.AT_LEAST_ONCE : CheckpointingMode.EXACTLY_ONCE);
  env.getCheckpointConfig().enableUnalignedCheckpoints();
  if (Number(alignedTimeout) >= 0) env.getCheckpointConfig().setAlignedCheckpointTimeout(Number(alignedTimeout));
  env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 7), i }), n, RateLimiterStrategy.perSecond(Number(rate))), 'events').uid('events')
    .keyBy((e: Event) => e.key)
    .process(new SpoilingRunningSum()).uid('sums')
    .rebalance()
    .map((line: string) => {
      const until = performance.now() + slow;
      while (performance.now() < until);
      return line;
    }).uid('slow').name('slow')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;
