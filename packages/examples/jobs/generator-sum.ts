// Running sums per key over generated numbers: DataGeneratorSource emits 0 … count-1, keyBy
// puts each number under key n mod 10, reduce keeps the running sum of each key and the sink
// writes "<key> <sum>" on every update. The final sum of a key is its largest emitted sum.
//
//   pnpm weir run packages/examples/jobs/generator-sum.ts -p 2 -- <count> <output dir>
import { Types, type StreamExecutionEnvironment } from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder } from '@weir/connectors';

export default function generatorSum(env: StreamExecutionEnvironment, args: string[]): void {
  const [count, output] = args;
  if (count === undefined || !/^\d+$/.test(count) || output === undefined) {
    throw new Error('generator-sum needs two arguments: <count> <output dir>');
  }
  env
    .fromSource(new DataGeneratorSource((index) => index, Number(count), RateLimiterStrategy.noOp(), Types.NUMBER), 'numbers')
    .uid('numbers')
    .map((n): [number, number] => [n % 10, n])
    .uid('key')
    .keyBy(([key]) => key)
    .reduce(([key, sum], [, n]): [number, number] => [key, sum + n])
    .uid('sum')
    .map(([key, sum]) => `${key} ${sum}`)
    .uid('format')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build())
    .uid('sink');
  env.execute('generator-sum');
}
