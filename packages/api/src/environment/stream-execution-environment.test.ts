import { describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from './stream-execution-environment.ts';
import { WatermarkStrategy } from '../time/watermark-strategy.ts';
import { RichMapFunction } from '../functions/types.ts';
import { environment, errorOf, testSink, testSource } from '../testing/fixtures.ts';

class MyMapper extends RichMapFunction<string, string> {
  override map(value: string): string {
    return value;
  }
}

describe('StreamExecutionEnvironment', () => {
  it('accepts both fromSource forms', () => {
    const env = environment();
    env.fromSource(testSource<string>(), 'plain');
    env.fromSource(testSource<string>(), WatermarkStrategy.noWatermarks(), 'with strategy');
    expect(env.getStreamGraph().nodes.map((n) => [n.name, n.spec.kind])).toEqual([
      ['plain', 'source'],
      ['with strategy', 'source'],
    ]);
  });

  it('splits fromElements and fromCollection items into a bounded collection source', () => {
    const env = environment();
    env.fromElements('a', 'b');
    env.fromCollection(new Set([1, 2, 3]));
    const [elements, collection] = env.getStreamGraph().nodes.map((n) => n.spec);
    expect(elements?.kind === 'source' && (elements.source as unknown as { items: unknown }).items).toEqual(['a', 'b']);
    expect(collection?.kind === 'source' && (collection.source as unknown as { items: unknown }).items).toEqual([1, 2, 3]);
    expect(elements?.kind === 'source' && elements.source.boundedness).toBe('bounded');
  });

  it.each([
    ['zero', 0],
    ['negative', -2],
    ['fraction', 1.5],
    ['above 32768', 40000],
  ])('rejects a %s parallelism with INVALID_PARALLELISM', (_name, p) => {
    const env = environment();
    expect(errorOf(() => env.setParallelism(p))).toEqual({
      code: 'INVALID_PARALLELISM',
      message: `parallelism of the environment must be an integer from 1 to 32768, got ${p}`,
    });
    expect(errorOf(() => env.fromElements(1).setParallelism(p)).code).toBe('INVALID_PARALLELISM');
    expect(errorOf(() => env.fromElements(1).sinkTo(testSink()).setParallelism(p)).code).toBe('INVALID_PARALLELISM');
    expect(errorOf(() => new StreamExecutionEnvironment({ parallelism: p, maxParallelism: -1, bufferTimeoutMs: 0 })).code).toBe(
      'INVALID_PARALLELISM',
    );
  });

  it.each([0, -1, 32769, 2.5])('rejects max parallelism %s with INVALID_MAX_PARALLELISM', (m) => {
    expect(errorOf(() => environment().setMaxParallelism(m)).code).toBe('INVALID_MAX_PARALLELISM');
    expect(errorOf(() => environment().fromElements(1).setMaxParallelism(m)).code).toBe('INVALID_MAX_PARALLELISM');
  });

  it('rejects a max parallelism below an operator parallelism when the graph is built', () => {
    const env = environment().setMaxParallelism(4);
    env.fromElements(1).map((x) => x).name('wide').setParallelism(8);
    expect(errorOf(() => env.getStreamGraph())).toEqual({
      code: 'INVALID_MAX_PARALLELISM',
      message:
        "operator 'wide' has parallelism 8 above its max parallelism 4 (from the environment's setMaxParallelism()); max parallelism must be at least the parallelism",
    });
    const own = environment();
    own.fromElements(1).setParallelism(3).setMaxParallelism(2);
    expect(errorOf(() => own.getStreamGraph()).message).toContain("(from its setMaxParallelism())");
  });

  it('validates the buffer timeout', () => {
    expect(environment().setBufferTimeout(-1).getBufferTimeout()).toBe(-1);
    expect(environment().setBufferTimeout(0).getBufferTimeout()).toBe(0);
    expect(errorOf(() => environment().setBufferTimeout(-2)).code).toBe('INVALID_BUFFER_TIMEOUT');
    expect(errorOf(() => environment().setBufferTimeout(0.5)).code).toBe('INVALID_BUFFER_TIMEOUT');
  });

  it('rejects a duplicate uid naming the operator that has it', () => {
    const env = environment();
    const source = env.fromElements(1).uid('numbers').name('Numbers');
    source.uid('numbers');
    expect(errorOf(() => source.map((x) => x).uid('numbers'))).toEqual({
      code: 'DUPLICATE_UID',
      message: "uid 'numbers' is already used by operator 'Numbers'; every operator needs its own uid, as state is restored by it",
    });
    expect(errorOf(() => source.sinkTo(testSink()).uid('numbers')).code).toBe('DUPLICATE_UID');
    expect(errorOf(() => source.uid('')).code).toBe('INVALID_UID');
  });

  it('frees a uid when its operator takes another one', () => {
    const env = environment();
    const source = env.fromElements(1).uid('a').uid('b');
    source.map((x) => x).uid('a');
    expect(env.getStreamGraph().nodes.map((n) => n.uid)).toEqual(['b', 'a']);
  });

  it('rejects a job without sources', () => {
    expect(errorOf(() => environment().getStreamGraph())).toEqual({
      code: 'INVALID_GRAPH',
      message: "the job defines no sources; call env.fromSource(...) in the job's main",
    });
  });

  it('rejects a forward edge between different parallelisms, naming both operators', () => {
    const env = environment();
    env.fromElements(1).name('numbers').setParallelism(2).forward().map((x) => x).name('double').setParallelism(4);
    expect(errorOf(() => env.getStreamGraph())).toEqual({
      code: 'INVALID_GRAPH',
      message:
        "forward() joins 'numbers' (parallelism 2) to 'double' (parallelism 4); a forward edge needs equal parallelism: set it equal or use rebalance()",
    });
  });

  it('rejects streams of another environment and a stream unioned with itself', () => {
    const a = environment().fromElements(1);
    const b = environment().fromElements(2);
    expect(errorOf(() => a.union(b)).code).toBe('INVALID_GRAPH');
    expect(errorOf(() => a.connect(b)).code).toBe('INVALID_GRAPH');
    expect(errorOf(() => a.union(a.rebalance())).message).toContain("union() got the stream of 'Collection Source' twice");
  });

  it('rejects functions of the wrong shape with INVALID_FUNCTION', () => {
    const stream = environment().fromElements('x');
    expect(errorOf(() => stream.map({} as never))).toEqual({
      code: 'INVALID_FUNCTION',
      message: 'map() takes a function (value) => result or an object with a map() method, got an object without the method (no own keys)',
    });
    expect(errorOf(() => stream.map(MyMapper as never)).message).toBe('map() got the class MyMapper; pass an instance: map(new MyMapper())');
    expect(errorOf(() => stream.process((() => {}) as never)).code).toBe('INVALID_FUNCTION');
    expect(errorOf(() => stream.keyBy('word' as never)).code).toBe('INVALID_FUNCTION');
    expect(errorOf(() => stream.sinkTo({} as never)).code).toBe('INVALID_FUNCTION');
    expect(errorOf(() => environment().fromSource({} as never, 'x')).code).toBe('INVALID_FUNCTION');
    expect(errorOf(() => environment().fromSource(testSource(), {} as never, 'x')).code).toBe('INVALID_FUNCTION');
    expect(errorOf(() => environment().fromSource(testSource(), '')).code).toBe('INVALID_NAME');
    expect(errorOf(() => stream.name('')).code).toBe('INVALID_NAME');
  });
});
