// Word count, the streaming way: every line is split into words, words are partitioned by
// key, and a KeyedProcessFunction keeps each word's count in keyed state and emits
// "<word> <count>" on every update. The final count of a word is its largest emitted count.
//
//   pnpm weir run packages/examples/jobs/word-count.ts -p 2 -- <input file> <output dir>
import {
  KeyedProcessFunction,
  Types,
  ValueStateDescriptor,
  type Collector,
  type KeyedProcessContext,
  type StreamExecutionEnvironment,
  type ValueState,
} from '@weir/api';
import { FileSink, FileSource, SimpleStringEncoder, TextLineInputFormat } from '@weir/connectors';

class CountPerWord extends KeyedProcessFunction<string, string, string> {
  #count!: ValueState<number>;

  override open(): void {
    this.#count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER, 0));
  }

  processElement(word: string, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const count = (this.#count.value() ?? 0) + 1;
    this.#count.update(count);
    out.collect(`${word} ${count}`);
  }
}

export default function wordCount(env: StreamExecutionEnvironment, args: string[]): void {
  const [input, output] = args;
  if (input === undefined || output === undefined) {
    throw new Error('word-count needs two arguments: <input file> <output dir>');
  }
  env
    .fromSource(FileSource.forRecordStreamFormat(new TextLineInputFormat(), input).build(), 'lines')
    .uid('lines')
    // Same rule as the verifier in @weir/examples: lower case, runs of letters and digits.
    .flatMap((line: string, out: Collector<string>) => {
      for (const word of line.toLowerCase().match(/[a-z0-9]+/g) ?? []) out.collect(word);
    })
    .uid('split')
    .keyBy((word) => word)
    .process(new CountPerWord())
    .uid('count')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build())
    .uid('sink');
  env.execute('word-count');
}
