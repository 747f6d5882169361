/**
 * Measures records/s of an in-process pipeline: generator -> keyBy -> ValueState count ->
 * discarding sink, one Task per subtask on one PartitionRegistry.
 * Run: node --import tsx packages/runtime/scripts/measure-pipeline.ts [records] [parallelism] [number|string]
 */
import {
  Boundedness,
  InputStatus,
  KeyedProcessFunction,
  Types,
  ValueStateDescriptor,
  type Collector,
  type KeyedProcessContext,
  type ReaderOutput,
  type Source,
  type ValueState,
} from '@weir/api';
import { createLogger, isTerminalTaskState } from '@weir/common';
import { runJob, waitUntil } from '../src/testing/harness.ts';

const total = Number(process.argv[2] ?? 5_000_000);
const parallelism = Number(process.argv[3] ?? 1);
const keyKind = process.argv[4] ?? 'number';

function generator(count: number): Source<number | string> {
  return {
    boundedness: Boundedness.BOUNDED,
    createReader(ctx) {
      let next = Math.floor((ctx.subtaskIndex * count) / ctx.parallelism);
      const end = Math.floor(((ctx.subtaskIndex + 1) * count) / ctx.parallelism);
      return {
        pollNext(output: ReaderOutput<number | string>) {
          if (next >= end) return InputStatus.END_OF_INPUT;
          const i = next++;
          output.collect(keyKind === 'number' ? i : `key-${i % 10_000}`);
          return InputStatus.MORE_AVAILABLE;
        },
        isAvailable: () => Promise.resolve(),
      };
    },
  };
}

class Count extends KeyedProcessFunction<unknown, unknown, number> {
  #count!: ValueState<number>;
  override open(): void {
    this.#count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER));
  }
  override processElement(_v: unknown, _ctx: KeyedProcessContext<unknown>, out: Collector<number>): void {
    const next = (this.#count.value() ?? 0) + 1;
    this.#count.update(next);
    out.collect(next);
  }
}

let written = 0;
const started = performance.now();
const job = await runJob((env) => {
  env.setParallelism(parallelism);
  env
    .fromSource(generator(total), 'generator')
    .keyBy((v) => (typeof v === 'number' ? v % 10_000 : v))
    .process(new Count())
    .sinkTo({ createWriter: () => ({ write: () => void written++, flush: () => {}, close: () => {} }) });
});
await waitUntil(() => [...job.tasks.values()].flat().every((t) => isTerminalTaskState(t.state)), 1e9);
const seconds = (performance.now() - started) / 1000;
const failed = [...job.changes.values()].flat().filter((c) => c.failure !== undefined);
createLogger('measure').info(
  { records: total, written, parallelism, keyKind, seconds: Number(seconds.toFixed(2)), recordsPerSecond: Math.round(total / seconds), failed },
  'pipeline measured',
);
