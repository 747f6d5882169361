// Measures records/s of generator -> keyBy -> 1 s event-time tumbling window count -> discard in one process:
//   node --import tsx packages/runtime/scripts/measure-windows.ts [records] [keys]
import { Boundedness, InputStatus, TumblingEventTimeWindows, WatermarkStrategy, type AggregateFunction, type ReaderOutput, type Source } from '@weir/api';
import { runJob } from '../src/testing/harness.ts';

const RECORDS = Number(process.argv[2] ?? 1_000_000);
const KEYS = Number(process.argv[3] ?? 10_000);
type Event = { key: string; time: number };

function generator(): Source<Event> {
  return {
    boundedness: Boundedness.BOUNDED,
    createReader(ctx) {
      let next = Math.floor((ctx.subtaskIndex * RECORDS) / ctx.parallelism);
      const end = Math.floor(((ctx.subtaskIndex + 1) * RECORDS) / ctx.parallelism);
      return {
        pollNext(output: ReaderOutput<Event>) {
          if (next >= end) return InputStatus.END_OF_INPUT;
          const i = next++;
          output.collect({ key: `user-${i % KEYS}`, time: Math.floor(i / 100) });
          return InputStatus.MORE_AVAILABLE;
        },
        isAvailable: () => Promise.resolve(),
      };
    },
  };
}

const count: AggregateFunction<Event, number, number> = { createAccumulator: () => 0, add: (_e, n) => n + 1, getResult: (n) => n, merge: (a, b) => a + b };
let out = 0;
const start = performance.now();
const job = await runJob((env) => {
  env.setParallelism(1);
  env
    .fromSource(generator(), WatermarkStrategy.forBoundedOutOfOrderness<Event>(100).withTimestampAssigner((e) => e.time), 'gen')
    .keyBy((e) => e.key)
    .window(TumblingEventTimeWindows.of(1000))
    .aggregate(count)
    .sinkTo({ createWriter: () => ({ write: () => void out++, flush: () => {}, close: () => {} }) });
});
await job.whenAllTerminal();
const seconds = (performance.now() - start) / 1000;
console.log(`${RECORDS} records, ${out} window results in ${seconds.toFixed(2)} s: ${Math.round(RECORDS / seconds).toLocaleString('en')} records/s`);
