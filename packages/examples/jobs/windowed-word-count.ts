// Word counts per 5-second window of event time, Flink style: words arrive out of order (up to
// 2 s late), so the source's WatermarkStrategy allows 3 s of out-of-orderness and every
// tumbling window fires once, when the watermark passes its end. A few stragglers arrive a
// minute late: their windows are long gone, and they go to the late-data side output instead
// of being dropped. Both the counts and the stragglers go to an exactly-once FileSink.
//
//   pnpm weir run packages/examples/jobs/windowed-word-count.ts -- <words> <words/s> <output dir>
import {
  CheckpointingMode,
  OutputTag,
  ProcessWindowFunction,
  Time,
  TumblingEventTimeWindows,
  WatermarkStrategy,
  type AggregateFunction,
  type Collector,
  type ProcessWindowContext,
  type StreamExecutionEnvironment,
  type TimeWindow,
} from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder } from '@weir/connectors';

export interface Word {
  readonly word: string;
  /** Event time, ms. */
  readonly time: number;
}

const VOCABULARY = ['it', 'was', 'the', 'best', 'of', 'times', 'worst', 'age', 'wisdom', 'foolishness', 'epoch', 'belief'];
/** Event time moves 10 ms per word. */
export const MS_PER_WORD = 10;
export const WINDOW_MS = Time.seconds(5);
export const OUT_OF_ORDERNESS_MS = Time.seconds(3);
/** After the first FIRST_STRAGGLER words (the stream has a watermark by then), every STRAGGLER_EVERY-th word comes a minute late. */
export const STRAGGLER_EVERY = 997;
const FIRST_STRAGGLER = 2_000;
export const STRAGGLER_DELAY_MS = Time.minutes(1);
/** Event time of word 0: 2021-01-01T00:00:00Z. */
const START = Date.UTC(2021, 0, 1);

/** Word `i` of the generated stream: its place in time, up to 2 s earlier (out of order), a minute earlier for stragglers. */
export function word(i: number): Word {
  let h = Math.imul(i ^ 0x5bd1e995, 0x27d4eb2d);
  h = (h ^ (h >>> 15)) >>> 0;
  const straggler = isStraggler(i);
  const time = START + i * MS_PER_WORD - (straggler ? STRAGGLER_DELAY_MS : h % 2_000);
  return { word: VOCABULARY[h % VOCABULARY.length]!, time };
}

export function isStraggler(i: number): boolean {
  return i >= FIRST_STRAGGLER && i % STRAGGLER_EVERY === 0;
}

const countWords: AggregateFunction<Word, number, number> = {
  createAccumulator: () => 0,
  add: (_word, count) => count + 1,
  getResult: (count) => count,
  merge: (a, b) => a + b,
};

/** "<window start ISO> <word> <count>" per window. */
class FormatWindow extends ProcessWindowFunction<number, string, string, TimeWindow> {
  process(word: string, ctx: ProcessWindowContext<TimeWindow>, counts: Iterable<number>, out: Collector<string>): void {
    for (const count of counts) out.collect(`${new Date(ctx.window().start).toISOString()} ${word} ${count}`);
  }
}

export const LATE_WORDS = new OutputTag<Word>('late-words');

export default function windowedWordCount(env: StreamExecutionEnvironment, args: string[]): void {
  const [count, rate, output] = args;
  if (!/^\d+$/.test(count ?? '') || !/^\d+$/.test(rate ?? '') || output === undefined) {
    throw new Error('windowed-word-count needs three arguments: <words> <words/s> <output dir>');
  }
  env.setParallelism(2);
  env.enableCheckpointing(1_000);
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  const sink = FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build();
  const counts = env
    .fromSource(
      new DataGeneratorSource(word, Number(count), RateLimiterStrategy.perSecond(Number(rate))),
      WatermarkStrategy.forBoundedOutOfOrderness<Word>(OUT_OF_ORDERNESS_MS).withTimestampAssigner((w) => w.time),
      'words',
    )
    .uid('words')
    // One reader: the stragglers are late by the stream's own watermark.
    .setParallelism(1)
    .keyBy((w) => w.word)
    .window(TumblingEventTimeWindows.of(WINDOW_MS))
    .sideOutputLateData(LATE_WORDS)
    .aggregate(countWords, new FormatWindow())
    .uid('counts');
  counts.getSideOutput(LATE_WORDS).map((w) => `late ${new Date(w.time).toISOString()} ${w.word}`).uid('late').union(counts).sinkTo(sink).uid('sink');
  env.execute('Windowed Word Count');
}
