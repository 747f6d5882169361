// The example project `weir init` writes: its TypeScript files, as text.

export const PIPELINE_TS = `import {
  KeyedProcessFunction,
  ProcessWindowFunction,
  Time,
  TumblingEventTimeWindows,
  Types,
  ValueStateDescriptor,
  type Collector,
  type DataStream,
  type KeyedProcessContext,
  type ProcessWindowContext,
  type TimeWindow,
  type ValueState,
} from '@weir/api';

/** One temperature reading; \`time\` is its event time (ms). */
export interface Reading {
  readonly sensor: string;
  readonly time: number;
  readonly celsius: number;
}

/** A reading with its running number per sensor. */
export interface NumberedReading extends Reading {
  readonly n: number;
}

/** "sensor,time,celsius" (one line of data/readings.csv). */
export function parseReading(line: string): Reading {
  const [sensor, time, celsius] = line.split(',');
  return { sensor: sensor!.trim(), time: Number(time), celsius: Number(celsius) };
}

/** Keyed state: numbers each sensor's readings 1, 2, 3... (a ValueState per sensor). */
export class NumberReadings extends KeyedProcessFunction<string, Reading, NumberedReading> {
  #count!: ValueState<number>;

  override open(): void {
    this.#count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER, 0));
  }

  processElement(reading: Reading, _ctx: KeyedProcessContext<string>, out: Collector<NumberedReading>): void {
    const n = (this.#count.value() ?? 0) + 1;
    this.#count.update(n);
    out.collect({ ...reading, n });
  }
}

/** "<sensor> <window start> max=<celsius> last=<n>" per sensor and 10 s event-time window. */
class Summarize extends ProcessWindowFunction<NumberedReading, string, string, TimeWindow> {
  process(sensor: string, ctx: ProcessWindowContext<TimeWindow>, readings: Iterable<NumberedReading>, out: Collector<string>): void {
    let max = Number.NEGATIVE_INFINITY;
    let last = 0;
    for (const r of readings) {
      max = Math.max(max, r.celsius);
      last = Math.max(last, r.n);
    }
    out.collect(\`\${sensor} \${ctx.window().start} max=\${max} last=\${last}\`);
  }
}

/** The job's logic, apart from its source and sink so a test can run it on its own input. */
export function summarizePerWindow(readings: DataStream<Reading>): DataStream<string> {
  return readings
    .keyBy((r) => r.sensor)
    .process(new NumberReadings())
    .uid('number')
    .keyBy((r) => r.sensor)
    .window(TumblingEventTimeWindows.of(Time.seconds(10)))
    .process(new Summarize())
    .uid('summarize');
}
`;

export const JOB_TS = `// The job: readings from a file, numbered per sensor, summarized per 10 s event-time window,
// written to a directory. Run it with \`npm run run\` (see README.md).
import { WatermarkStrategy, type StreamExecutionEnvironment } from '@weir/api';
import { FileSink, FileSource, SimpleStringEncoder, TextLineInputFormat } from '@weir/connectors';
import { parseReading, summarizePerWindow, type Reading } from './pipeline.ts';

export default function job(env: StreamExecutionEnvironment, args: string[]): void {
  const [input, output] = args;
  if (input === undefined || output === undefined) throw new Error('the job takes two arguments: <input file> <output directory>');
  const readings = env
    .fromSource(FileSource.forRecordStreamFormat(new TextLineInputFormat(), input).build(), WatermarkStrategy.noWatermarks<string>(), 'readings')
    .uid('readings')
    .filter((line: string) => line.trim() !== '')
    .map(parseReading)
    .assignTimestampsAndWatermarks(WatermarkStrategy.forBoundedOutOfOrderness<Reading>(1_000).withTimestampAssigner((r) => r.time));
  summarizePerWindow(readings)
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build())
    .uid('sink');
  env.execute('sensor-summary');
}
`;

export const TEST_JOB_TS = `// The pipeline on a fixed input with event times and watermarks, into a CollectSink:
// what test/job.test.ts runs on a MiniCluster.
import { WatermarkStrategy, type StreamExecutionEnvironment } from '@weir/api';
import { CollectSink, TimestampedCollectionSource } from '@weir/testing/job';
import { summarizePerWindow, type Reading } from '../src/pipeline.ts';

const reading = (sensor: string, time: number, celsius: number): readonly [Reading, number] => [{ sensor, time, celsius }, time];

export default function testJob(env: StreamExecutionEnvironment): void {
  const source = TimestampedCollectionSource.ascending([reading('a', 1_000, 20), reading('b', 2_000, 30), reading('a', 9_000, 25), reading('a', 12_000, 21)]);
  summarizePerWindow(env.fromSource(source, WatermarkStrategy.noWatermarks<Reading>(), 'readings')).sinkTo(new CollectSink('summaries'));
  env.execute('sensor-summary-test');
}
`;

export const TEST_TS = `import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { KeyedOneInputStreamOperatorTestHarness, MiniCluster } from '@weir/testing';
import { NumberReadings, type Reading } from '../src/pipeline.ts';

test('NumberReadings numbers each sensor on its own (operator test harness)', async () => {
  const harness = KeyedOneInputStreamOperatorTestHarness.forKeyedProcessFunction(new NumberReadings(), (r: Reading) => r.sensor);
  await harness.processElement({ sensor: 'a', time: 1, celsius: 20 }, 1);
  await harness.processElement({ sensor: 'b', time: 2, celsius: 21 }, 2);
  await harness.processElement({ sensor: 'a', time: 3, celsius: 22 }, 3);
  assert.deepEqual(harness.extractOutputValues().map((r) => \`\${r.sensor}\${r.n}\`), ['a1', 'b1', 'a2']);
  await harness.close();
});

const cluster = new MiniCluster({ taskManagers: 2, slots: 2 });
before(() => cluster.start());
after(() => cluster.close());

test('the pipeline summarizes each 10 s window per sensor (MiniCluster)', async () => {
  const execution = await cluster.execute(new URL('./pipeline-job.ts', import.meta.url), { parallelism: 2 });
  await execution.result();
  assert.deepEqual(execution.collected<string>('summaries').sort(), ['a 0 max=25 last=2', 'a 10000 max=21 last=3', 'b 0 max=30 last=1']);
});
`;
