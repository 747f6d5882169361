import { describe, expect, it } from 'vitest';
import { CommonErrorCode, isWeirError } from '@weir/common';
import { buildStreamGraph } from './build-stream-graph.ts';
import type { StreamGraph } from './stream-graph.ts';
import { CoProcessFunction, ProcessFunction, RichMapFunction, isRichFunction, type KeyedProcessContext, type ProcessContext } from '../functions/types.ts';
import type { Collector } from '../functions/collector.ts';
import { CountPerWord, DEFAULTS, environment, testSink, wordCount } from '../testing/fixtures.ts';
import type { StreamExecutionEnvironment } from '../environment/stream-execution-environment.ts';
import { Types } from '../types/types.ts';

function edges(graph: StreamGraph): [number, number, number, string][] {
  return graph.nodes.flatMap((n) => n.inputs.map((e) => [e.sourceId, e.targetId, e.inputIndex, e.partitioner] as [number, number, number, string]));
}

class Upper extends RichMapFunction<string, string> {
  override map(value: string): string {
    return value.toUpperCase();
  }
}

class Passthrough extends ProcessFunction<string, string> {
  override processElement(value: string, _ctx: ProcessContext, out: Collector<string>): void {
    out.collect(value);
  }
}

class Join extends CoProcessFunction<string, number, string> {
  override processElement1(value: string, _ctx: KeyedProcessContext<unknown>, out: Collector<string>): void {
    out.collect(value);
  }
  override processElement2(value: number, _ctx: KeyedProcessContext<unknown>, out: Collector<string>): void {
    out.collect(String(value));
  }
}

describe('buildStreamGraph', () => {
  it('builds the word-count job: nodes, names, parallelism, edges and job name', async () => {
    const graph = await buildStreamGraph(wordCount, ['2'], DEFAULTS);
    expect(graph.jobName).toBe('word count');
    expect(graph.nodes.map((n) => [n.id, n.spec.kind, n.name, n.uid, n.parallelism, n.maxParallelism])).toEqual([
      [0, 'source', 'lines', 'lines', 2, 128],
      [1, 'flatMap', 'Flat Map', 'split', 2, 128],
      [2, 'keyedProcess', 'KeyedProcess', 'count', 2, 128],
      [3, 'sink', 'Sink', 'sink', 2, 128],
    ]);
    expect(edges(graph)).toEqual([
      [0, 1, 0, 'forward'],
      [1, 2, 0, 'hash'],
      [2, 3, 0, 'forward'],
    ]);
    expect(graph.config).toEqual({ parallelism: 2, maxParallelism: -1, bufferTimeoutMs: 100, autoWatermarkIntervalMs: 200, objectReuse: false });
  });

  it('normalizes lambdas into objects and keeps function objects as they are', async () => {
    const upper = new Upper();
    const graph = await buildStreamGraph(
      (env) => {
        env
          .fromElements('a', 'b')
          .map((s: string) => s.length)
          .filter((n) => n > 0)
          .flatMap((n: number, out) => out.collect(n))
          .map((n) => String(n))
          .map(upper)
          .sinkTo(testSink());
      },
      [],
      DEFAULTS,
    );
    const [, map, filter, flatMap, , rich] = graph.nodes.map((n) => n.spec);
    if (map?.kind !== 'map' || filter?.kind !== 'filter' || flatMap?.kind !== 'flatMap' || rich?.kind !== 'map') {
      throw new Error('unexpected node kinds');
    }
    expect(map.fn.map('abc')).toBe(3);
    expect(filter.fn.filter(0)).toBe(false);
    const out: unknown[] = [];
    flatMap.fn.flatMap(7, { collect: (r) => out.push(r) });
    expect(out).toEqual([7]);
    expect(rich.fn).toBe(upper);
    expect(isRichFunction(rich.fn)).toBe(true);
    expect(map.key).toBeUndefined();
  });

  it('sets the key on operators of a KeyedStream and a HASH edge with the selector', async () => {
    const selector = (s: string): string => s.slice(0, 1);
    const reduce = (a: string, b: string): string => a + b;
    const graph = await buildStreamGraph(
      (env) => {
        const keyed = env.fromElements('ab', 'cd').keyBy(selector);
        keyed.map((s) => s).sinkTo(testSink());
        keyed.filter(() => true).sinkTo(testSink());
        keyed.flatMap((s, out) => out.collect(s)).sinkTo(testSink());
        keyed.reduce(reduce).sinkTo(testSink());
        keyed.process(new CountPerWord()).sinkTo(testSink());
      },
      [],
      DEFAULTS,
    );
    const keyedNodes = graph.nodes.filter((n) => n.spec.kind !== 'sink' && n.spec.kind !== 'source');
    expect(keyedNodes.map((n) => [n.spec.kind, n.name])).toEqual([
      ['map', 'Map'],
      ['filter', 'Filter'],
      ['flatMap', 'Flat Map'],
      ['reduce', 'Keyed Reduce'],
      ['keyedProcess', 'KeyedProcess'],
    ]);
    for (const node of keyedNodes) {
      expect((node.spec as { key?: unknown }).key).toBe(selector);
      expect(node.inputs).toEqual([{ sourceId: 0, targetId: node.id, inputIndex: 0, partitioner: 'hash', keySelector: selector }]);
    }
    const reduceSpec = keyedNodes[3]!.spec;
    expect(reduceSpec.kind === 'reduce' && reduceSpec.fn.reduce('a', 'b')).toBe('ab');
  });

  it('uses the explicit partitioners and drops keyedness after rebalance, broadcast or forward', async () => {
    const graph = await buildStreamGraph(
      (env) => {
        const source = env.fromElements('a', 'b', 'c');
        source.rebalance().map((x) => x).sinkTo(testSink());
        source.broadcast().process(new Passthrough()).sinkTo(testSink());
        source.keyBy((x) => x).forward().map((x) => x).sinkTo(testSink());
      },
      [],
      DEFAULTS,
    );
    expect(edges(graph)).toEqual([
      [0, 1, 0, 'rebalance'],
      [1, 2, 0, 'forward'],
      [0, 3, 0, 'broadcast'],
      [3, 4, 0, 'forward'],
      [0, 5, 0, 'forward'],
      [5, 6, 0, 'forward'],
    ]);
    expect(graph.nodes[3]!.spec.kind).toBe('process');
    expect((graph.nodes[5]!.spec as { key?: unknown }).key).toBeUndefined();
    expect(graph.nodes[5]!.inputs[0]!.keySelector).toBeUndefined();
  });

  it('defaults to FORWARD at equal parallelism and REBALANCE otherwise, resolved after setParallelism', async () => {
    const graph = await buildStreamGraph(
      (env) => {
        const source = env.fromElements('x');
        const mapped = source.map((s) => s);
        mapped.sinkTo(testSink()).setParallelism(3);
        source.setParallelism(2);
        mapped.setParallelism(2);
      },
      [],
      DEFAULTS,
    );
    expect(graph.nodes.map((n) => n.parallelism)).toEqual([2, 2, 3]);
    expect(edges(graph)).toEqual([
      [0, 1, 0, 'forward'],
      [1, 2, 0, 'rebalance'],
    ]);
  });

  it('gives union inputs inputIndex 0 in order, each with its own partitioning', async () => {
    const key = (s: string): string => s;
    const graph = await buildStreamGraph(
      (env) => {
        const a = env.fromElements('a');
        const b = env.fromElements('b');
        const c = env.fromElements('c');
        a.union(b.keyBy(key), c.rebalance()).map((s) => s).sinkTo(testSink());
      },
      [],
      DEFAULTS,
    );
    expect(graph.nodes[3]!.inputs).toEqual([
      { sourceId: 0, targetId: 3, inputIndex: 0, partitioner: 'forward' },
      { sourceId: 1, targetId: 3, inputIndex: 0, partitioner: 'hash', keySelector: key },
      { sourceId: 2, targetId: 3, inputIndex: 0, partitioner: 'rebalance' },
    ]);
    expect((graph.nodes[3]!.spec as { key?: unknown }).key).toBeUndefined();
  });

  it('gives connect inputs inputIndex 0 and 1, keyed when both sides are', async () => {
    const k1 = (s: string): string => s;
    const k2 = (n: number): string => String(n);
    const graph = await buildStreamGraph(
      (env) => {
        const words = env.fromElements('a', 'b');
        const numbers = env.fromElements(1, 2);
        words.connect(numbers).process(new Join()).name('plain').sinkTo(testSink());
        words.connect(numbers).keyBy(k1, k2).process(new Join()).name('keyed').sinkTo(testSink());
        words.keyBy(k1).connect(numbers).process(new Join()).name('one side').sinkTo(testSink());
      },
      [],
      DEFAULTS,
    );
    const [plain, keyed, oneSide] = graph.nodes.filter((n) => n.spec.kind === 'coProcess');
    expect(plain!.inputs.map((e) => [e.sourceId, e.inputIndex, e.partitioner])).toEqual([
      [0, 0, 'forward'],
      [1, 1, 'forward'],
    ]);
    expect(plain!.spec).not.toHaveProperty('keys');
    expect(keyed!.inputs).toEqual([
      { sourceId: 0, targetId: keyed!.id, inputIndex: 0, partitioner: 'hash', keySelector: k1 },
      { sourceId: 1, targetId: keyed!.id, inputIndex: 1, partitioner: 'hash', keySelector: k2 },
    ]);
    expect(keyed!.spec.kind === 'coProcess' && keyed!.spec.keys).toEqual([k1, k2]);
    expect(oneSide!.spec).not.toHaveProperty('keys');
    expect(oneSide!.inputs.map((e) => e.partitioner)).toEqual(['hash', 'forward']);
  });

  it('allows a stream without a sink', async () => {
    const graph = await buildStreamGraph((env) => void env.fromElements(1).map((x) => x), [], DEFAULTS);
    expect(graph.nodes.map((n) => n.spec.kind)).toEqual(['source', 'map']);
  });

  it('resolves max parallelism: own, else the environment, else derived from the parallelism', async () => {
    const build = (envMax: number | undefined) =>
      buildStreamGraph(
        (env) => {
          if (envMax !== undefined) env.setMaxParallelism(envMax);
          env.fromElements(1).setParallelism(100).map((x) => x).setMaxParallelism(1000).setParallelism(100).sinkTo(testSink()).setParallelism(3);
        },
        [],
        DEFAULTS,
      );
    expect((await build(undefined)).nodes.map((n) => n.maxParallelism)).toEqual([256, 1000, 128]);
    expect((await build(512)).nodes.map((n) => n.maxParallelism)).toEqual([512, 1000, 512]);
  });

  it('names the job by execute(), else the main function, else "job"', async () => {
    async function myJob(env: StreamExecutionEnvironment): Promise<void> {
      await Promise.resolve();
      env.fromElements(1);
    }
    expect((await buildStreamGraph(myJob, [], DEFAULTS)).jobName).toBe('myJob');
    expect((await buildStreamGraph(Object.defineProperty((env: StreamExecutionEnvironment) => void env.fromElements(1), 'name', { value: 'default' }), [], DEFAULTS)).jobName).toBe('job');
    expect((await buildStreamGraph(wordCount, ['1'], DEFAULTS)).jobName).toBe('word count');
  });

  it('passes args and the defaults through to the environment', async () => {
    let seen: unknown;
    const graph = await buildStreamGraph(
      (env, args) => {
        seen = [args, env.getParallelism(), env.getMaxParallelism(), env.getBufferTimeout()];
        env.fromElements(1);
      },
      ['in', 'out'],
      { parallelism: 4, maxParallelism: 64, bufferTimeoutMs: 0 },
    );
    expect(seen).toEqual([['in', 'out'], 4, 64, 0]);
    expect(graph.config).toEqual({ parallelism: 4, maxParallelism: 64, bufferTimeoutMs: 0, autoWatermarkIntervalMs: 200, objectReuse: false });
    expect(graph.nodes[0]!.maxParallelism).toBe(64);
  });

  it('records the declared output types: a source\'s producedType, returns(), a filter passing its input\'s on', async () => {
    const row = Types.ROW({ word: Types.STRING });
    const graph = await buildStreamGraph(
      (env) => {
        env.getConfig().enableObjectReuse();
        const words = env.fromCollection([{ word: 'a' }]).returns(row);
        words.filter(() => true).map((w) => w.word).sinkTo(testSink());
      },
      [],
      DEFAULTS,
    );
    expect(graph.nodes.map((n) => n.outputType?.name)).toEqual(['ROW<word: STRING>', 'ROW<word: STRING>', undefined, undefined]);
    expect(graph.config.objectReuse).toBe(true);
  });

  it('wraps a plain error of the main in INVALID_JOB and rethrows WeirErrors as they are', async () => {
    await expect(
      buildStreamGraph(() => {
        throw new Error('no input path');
      }, [], DEFAULTS),
    ).rejects.toSatisfy((err) => isWeirError(err, CommonErrorCode.INVALID_JOB) && err.message.includes('no input path'));
    await expect(buildStreamGraph((env) => void env.setParallelism(0), [], DEFAULTS)).rejects.toSatisfy((err) =>
      isWeirError(err, 'INVALID_PARALLELISM'),
    );
  });

  it('builds with environment() helpers the same as through buildStreamGraph', async () => {
    const env = environment({ parallelism: 2 });
    wordCount(env, ['2']);
    expect(env.getStreamGraph().nodes.map((n) => n.operatorId)).toEqual(
      (await buildStreamGraph(wordCount, ['2'], DEFAULTS)).nodes.map((n) => n.operatorId),
    );
  });
});
