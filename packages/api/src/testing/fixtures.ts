import { Boundedness, InputStatus, type Sink, type Source } from '../connector/types.ts';
import { StreamExecutionEnvironment, type EnvironmentDefaults } from '../environment/stream-execution-environment.ts';
import { KeyedProcessFunction, type KeyedProcessContext } from '../functions/types.ts';
import type { Collector } from '../functions/collector.ts';

/** Graph-building tests never run readers or writers; these only have the right shape. */
export function testSource<T>(): Source<T> {
  return {
    boundedness: Boundedness.BOUNDED,
    createReader: () => ({ pollNext: () => InputStatus.END_OF_INPUT, isAvailable: () => Promise.resolve() }),
  };
}

export function testSink<T>(): Sink<T> {
  return { createWriter: () => ({ write: () => {}, flush: () => {}, close: () => {} }) };
}

export class CountPerWord extends KeyedProcessFunction<string, string, string> {
  override processElement(value: string, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    out.collect(value);
  }
}

/** The word-count shape of the package README: source -> flatMap -> keyBy -> process -> sink. */
export function wordCount(env: StreamExecutionEnvironment, args: string[]): void {
  env.setParallelism(Number(args[0] ?? '2'));
  env
    .fromSource(testSource<string>(), 'lines')
    .uid('lines')
    .flatMap((line: string, out) => line.split(/\s+/).forEach((w) => out.collect(w)))
    .uid('split')
    .keyBy((w) => w)
    .process(new CountPerWord())
    .uid('count')
    .sinkTo(testSink())
    .uid('sink');
  env.execute('word count');
}

export const DEFAULTS: EnvironmentDefaults = { parallelism: 1, maxParallelism: -1, bufferTimeoutMs: 100 };

export function environment(defaults: Partial<EnvironmentDefaults> = {}): StreamExecutionEnvironment {
  return new StreamExecutionEnvironment({ ...DEFAULTS, ...defaults });
}

export { errorOf } from '@weir/common/testing';
