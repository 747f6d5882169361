/**
 * Event-time jobs whose sources give each reader several splits (Kafka partitions, files,
 * generator ranges), with outputs known in advance: issue 23's tests. Every split's events
 * come in event-time order within a bounded out-of-orderness, so with per-split watermarks
 * made at assignment no event is ever late; a reader that let one split's watermark run ahead
 * of a split it had not read yet dropped that split's events as late, and whole windows.
 *
 * Each job counts and sums the events of every key in 1 s tumbling windows, keeps a running
 * total of each key's windows (ValueState), and writes one line per window,
 * "<key> <window start> <count> <sum> <total>", and one line "LATE <key> <i>" per event that
 * reached the window's late side output (none must).
 */

export const WINDOW_MS = 1_000;
export const OUT_OF_ORDERNESS_MS = 200;
/** Event time of the first event: a fixed instant, so windows are the same in every run. */
export const EPOCH = 1_700_000_000_000;

export interface SplitEvent {
  readonly key: string;
  readonly i: number;
  readonly ts: number;
}

/**
 * Event i: a group of 4 consecutive events shares key and time, so every key has events in
 * every partition, file or split. With `span`, events i and i + span have the same time: each
 * span of events (a generator's split, a file) covers the same stretch of event time.
 */
export function splitEvent(i: number, span = Number.POSITIVE_INFINITY): SplitEvent {
  // Literals, not the constants above: the jobs embed this function's text.
  const group = Math.floor((i % span) / 4);
  return { key: `k${group % 6}`, i, ts: 1_700_000_000_000 + group * 5 };
}

/** The lines a job commits for events 0..n-1, sorted: one per key and window, with its running total. */
export function expectedWindowTotals(n: number, span = Number.POSITIVE_INFINITY): string[] {
  const windows = new Map<string, Map<number, { count: number; sum: number }>>();
  for (let i = 0; i < n; i++) {
    const { key, ts } = splitEvent(i, span);
    const start = ts - (ts % WINDOW_MS);
    let perKey = windows.get(key);
    if (perKey === undefined) windows.set(key, (perKey = new Map()));
    const w = perKey.get(start) ?? { count: 0, sum: 0 };
    perKey.set(start, { count: w.count + 1, sum: w.sum + i });
  }
  const lines: string[] = [];
  for (const [key, perKey] of windows) {
    let total = 0;
    for (const start of [...perKey.keys()].sort((a, b) => a - b)) {
      const { count, sum } = perKey.get(start)!;
      total += sum;
      lines.push(`${key} ${start} ${count} ${sum} ${total}`);
    }
  }
  return lines.sort();
}

/** The pipeline every job below shares, after its source: windows, running totals and late events, as lines. */
const WINDOWED_TOTALS = `
import { KeyedProcessFunction, OutputTag, ProcessWindowFunction, TumblingEventTimeWindows, Types, ValueStateDescriptor,
  type AggregateFunction, type Collector, type DataStream, type KeyedProcessContext, type ProcessWindowContext, type TimeWindow, type ValueState } from '@weir/api';

type SplitEvent = { key: string; i: number; ts: number };
type Window = { key: string; start: number; count: number; sum: number };

const countAndSum: AggregateFunction<SplitEvent, [number, number], [number, number]> = {
  createAccumulator: () => [0, 0],
  add: (e, [count, sum]) => [count + 1, sum + e.i],
  getResult: (acc) => acc,
  merge: (a, b) => [a[0] + b[0], a[1] + b[1]],
};

class Label extends ProcessWindowFunction<[number, number], Window, string, TimeWindow> {
  process(key: string, ctx: ProcessWindowContext<TimeWindow>, results: Iterable<[number, number]>, out: Collector<Window>): void {
    for (const [count, sum] of results) out.collect({ key, start: ctx.window().start, count, sum });
  }
}

class RunningTotal extends KeyedProcessFunction<string, Window, string> {
  private total!: ValueState<number>;
  override open(): void {
    this.total = this.getRuntimeContext().getState(new ValueStateDescriptor('total', Types.NUMBER));
  }
  processElement(w: Window, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const total = (this.total.value() ?? 0) + w.sum;
    this.total.update(total);
    out.collect(w.key + ' ' + w.start + ' ' + w.count + ' ' + w.sum + ' ' + total);
  }
}

export function windowedTotals(events: DataStream<SplitEvent>): DataStream<string> {
  const late = new OutputTag<SplitEvent>('late');
  const windows = events
    .keyBy((e) => e.key)
    .window(TumblingEventTimeWindows.of(${WINDOW_MS}))
    .sideOutputLateData(late)
    .aggregate(countAndSum, new Label())
    .uid('windows');
  const lines = windows.keyBy((w) => w.key).process(new RunningTotal()).uid('totals');
  return lines.union(windows.getSideOutput(late).map((e) => 'LATE ' + e.key + ' ' + e.i).uid('late'));
}
`;

/** The source's strategy: per split, on the events as the source reads them (`of` gives an event's time). */
const strategy = (type: string, of: string) => `WatermarkStrategy.forBoundedOutOfOrderness<${type}>(${OUT_OF_ORDERNESS_MS}).withTimestampAssigner(${of})`;

/** An input line "<key> <i> <ts>" as an event. */
const PARSE = `(line: string): SplitEvent => {
  const [key, i, ts] = line.split(' ');
  return { key: key!, i: Number(i), ts: Number(ts) };
}`;

const BACKEND = `
function useBackend(env: StreamExecutionEnvironment, backend: string, checkpointDir: string): void {
  env.setStateBackend(backend === 'level-incremental' ? new LevelStateBackend(checkpointDir, true) : new FsStateBackend(checkpointDir));
}
`;

/**
 * Kafka in, Kafka out (EXACTLY_ONCE): input lines "<key> <i> <ts>" (`kafkaSplitEventLine`).
 * args: bootstrap servers, input topic, output topic, transactional id prefix, backend ('heap' | 'level-incremental'), checkpoint dir
 */
export const KAFKA_WINDOWED_TOTALS = `
import { StreamExecutionEnvironment, FsStateBackend, LevelStateBackend, RestartStrategies, WatermarkStrategy } from '@weir/api';
import { DeliveryGuarantee, KafkaRecordSerializationSchema, KafkaSink, KafkaSource, OffsetsInitializer, SimpleStringSchema } from '@weir/connectors';
${WINDOWED_TOTALS}
${BACKEND}
export default function kafkaWindowedTotals(env: StreamExecutionEnvironment, args: string[]) {
  const [servers, input, output, prefix, backend, checkpointDir] = args;
  env.setMaxParallelism(128);
  env.enableCheckpointing(500);
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1000, 500));
  useBackend(env, backend, checkpointDir);
  const source = KafkaSource.builder<string>()
    .setBootstrapServers(servers).setTopics(input).setGroupId(prefix + '-group')
    .setStartingOffsets(OffsetsInitializer.earliest())
    .setValueOnlyDeserializer(new SimpleStringSchema())
    .setProperty('partition.discovery.interval.ms', '500')
    .build();
  const sink = KafkaSink.builder<string>()
    .setBootstrapServers(servers)
    .setRecordSerializer(KafkaRecordSerializationSchema.builder<string>().setTopic(output).setValueSerializationSchema(new SimpleStringSchema()).build())
    .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
    .setTransactionalIdPrefix(prefix)
    .setProperty('transaction.timeout.ms', '120000')
    .build();
  const events = env.fromSource(source, ${strategy('string', "(line) => Number(line.split(' ')[2])")}, 'kafka-in').uid('kafka-in')
    .map(${PARSE}).uid('parse');
  windowedTotals(events).sinkTo(sink).uid('kafka-out');
}
`;

/** The Kafka input record of event i: partition i mod `partitions` (each partition's events in time order), never keyed by partition. */
export function kafkaSplitEventRecord(i: number, partitions: number): { value: string; partition: number } {
  const { key, ts } = splitEvent(i);
  return { value: `${key} ${i} ${ts}`, partition: i % partitions };
}

/**
 * A DataGeneratorSource of `splitEvent(i, span)`, rate-limited, into a FileSink. The generator
 * has one split per reader of the job's first run; restored at a lower parallelism, a reader
 * reads several, round-robin, each covering the same stretch of event time.
 * args: output dir, events, events/s, span, backend ('heap' | 'level-incremental'), checkpoint dir
 */
export const GENERATOR_WINDOWED_TOTALS = `
import { StreamExecutionEnvironment, FsStateBackend, LevelStateBackend, RestartStrategies, WatermarkStrategy } from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder } from '@weir/connectors';
${WINDOWED_TOTALS}
${BACKEND}
const splitEvent = ${splitEvent.toString()};
export default function generatorWindowedTotals(env: StreamExecutionEnvironment, args: string[]) {
  const [output, events, rate, span, backend, checkpointDir] = args;
  env.enableCheckpointing(300);
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1000, 500));
  useBackend(env, backend, checkpointDir);
  const source = new DataGeneratorSource((i: number) => splitEvent(i, Number(span)), Number(events), RateLimiterStrategy.perSecond(Number(rate)));
  const stream = env.fromSource(source, ${strategy('SplitEvent', '(e) => e.ts')}, 'events').uid('events');
  windowedTotals(stream).sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/**
 * A FileSource over a directory of files of lines "<key> <i> <ts>" into a FileSink; a map that
 * pauses the task thread now and then holds reading to about `perSecond` lines, so a run can
 * be stopped halfway. args: input dir, output dir, lines/s, backend, checkpoint dir
 */
export const FILE_WINDOWED_TOTALS = `
import { StreamExecutionEnvironment, FsStateBackend, LevelStateBackend, RestartStrategies, WatermarkStrategy } from '@weir/api';
import { FileSink, FileSource, SimpleStringEncoder, TextLineInputFormat } from '@weir/connectors';
${WINDOWED_TOTALS}
${BACKEND}
export default function fileWindowedTotals(env: StreamExecutionEnvironment, args: string[]) {
  const [input, output, rate, backend, checkpointDir] = args;
  env.enableCheckpointing(300);
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1000, 500));
  useBackend(env, backend, checkpointDir);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let read = 0;
  const throttle = (line: string): string => {
    if (++read % 4 === 0) Atomics.wait(pause, 0, 0, (4 * 1000) / Number(rate));
    return line;
  };
  const source = FileSource.forRecordStreamFormat(new TextLineInputFormat(), input).build();
  const events = env.fromSource(source, ${strategy('string', "(line) => Number(line.split(' ')[2])")}, 'files').uid('files')
    .map(throttle).uid('throttle')
    .map(${PARSE}).uid('parse');
  windowedTotals(events).sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/** The line of event i in an input file. */
export function splitEventLine(i: number, span = Number.POSITIVE_INFINITY): string {
  const { key, ts } = splitEvent(i, span);
  return `${key} ${i} ${ts}`;
}
