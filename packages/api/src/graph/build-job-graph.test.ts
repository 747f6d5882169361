import { describe, expect, it } from 'vitest';
import { buildJobGraph } from './build-job-graph.ts';
import { buildStreamGraph } from './build-stream-graph.ts';
import type { JobGraph } from './job-graph.ts';
import type { StreamExecutionEnvironment } from '../environment/stream-execution-environment.ts';
import { CountPerWord, DEFAULTS, testSink, testSource, wordCount } from '../testing/fixtures.ts';
import { OutputTag } from '../functions/output-tag.ts';
import { ProcessFunction, type ProcessContext } from '../functions/types.ts';
import type { Collector } from '../functions/collector.ts';

class Split extends ProcessFunction<string, string> {
  constructor(private readonly late: OutputTag<string>) {
    super();
  }

  override processElement(value: string, ctx: ProcessContext, out: Collector<string>): void {
    if (value === 'late') ctx.output(this.late, value);
    else out.collect(value);
  }
}

async function jobGraph(main: (env: StreamExecutionEnvironment, args: string[]) => void, args: string[] = []): Promise<JobGraph> {
  return buildJobGraph(await buildStreamGraph(main, args, DEFAULTS));
}

function shape(graph: JobGraph): [string, number, number[]][] {
  return graph.vertices.map((v) => [v.name, v.parallelism, v.operators.map((o) => o.nodeId)]);
}

describe('buildJobGraph', () => {
  it('chains word count at equal parallelism into [source -> flatMap] and [count -> sink]', async () => {
    const graph = await jobGraph(wordCount, ['2']);
    expect(shape(graph)).toEqual([
      ['lines -> Flat Map', 2, [0, 1]],
      ['KeyedProcess -> Sink', 2, [2, 3]],
    ]);
    const [first, second] = graph.vertices;
    expect(first!.id).toBe('5ea44c3961f16643e614435496b16115');
    expect(first!.id).toBe(first!.operators[0]!.operatorId);
    expect(second!.id).toBe('6c35493a2b937829c9815c39e23af964');
    expect(first!.operators.map((o) => [o.uid, o.kind])).toEqual([
      ['lines', 'source'],
      ['split', 'flatMap'],
    ]);
    const edge = { sourceVertexId: first!.id, targetVertexId: second!.id, sourceNodeId: 1, targetNodeId: 2, inputIndex: 0, partitioner: 'hash' };
    expect(first!.inputs).toEqual([]);
    expect(first!.outputs).toEqual([edge]);
    expect(second!.inputs).toEqual([edge]);
    expect(second!.outputs).toEqual([]);
    expect(graph.jobName).toBe('word count');
    expect(graph.bufferTimeoutMs).toBe(100);
    expect(JSON.parse(JSON.stringify(graph))).toEqual(graph);
  });

  it('breaks the chain at a rebalance', async () => {
    const graph = await jobGraph((env) => {
      env.fromSource(testSource<string>(), 'src').rebalance().map((s) => s).sinkTo(testSink());
    });
    expect(shape(graph)).toEqual([
      ['src', 1, [0]],
      ['Map -> Sink', 1, [1, 2]],
    ]);
    expect(graph.vertices[0]!.outputs.map((e) => e.partitioner)).toEqual(['rebalance']);
  });

  it('breaks the chain at a change of parallelism', async () => {
    const graph = await jobGraph((env) => {
      env.fromSource(testSource<string>(), 'src').map((s) => s).setParallelism(2).filter(() => true).setParallelism(2).sinkTo(testSink());
    });
    expect(shape(graph)).toEqual([
      ['src', 1, [0]],
      ['Map -> Filter', 2, [1, 2]],
      ['Sink', 1, [3]],
    ]);
  });

  it('chains every forward output of a fan-out, as Flink does, but not an operator with several inputs', async () => {
    const graph = await jobGraph((env) => {
      const a = env.fromSource(testSource<string>(), 'a');
      const mapped = a.map((s) => s);
      mapped.sinkTo(testSink()).name('s1');
      mapped.filter(() => true).sinkTo(testSink()).name('s2');
      env.fromSource(testSource<string>(), 'b').union(mapped).sinkTo(testSink()).name('s3');
    });
    expect(shape(graph)).toEqual([
      ['a -> Map -> (s1, Filter -> s2)', 1, [0, 1, 2, 3, 4]],
      ['b', 1, [5]],
      ['s3', 1, [6]],
    ]);
    const head = graph.vertices[0]!;
    expect(head.outputs.map((e) => [e.sourceNodeId, e.targetNodeId, e.targetVertexId])).toEqual([[1, 6, graph.vertices[2]!.id]]);
    expect(graph.vertices[2]!.inputs.map((e) => [e.sourceVertexId, e.sourceNodeId])).toEqual([
      [graph.vertices[1]!.id, 5],
      [head.id, 1],
    ]);
  });

  it('chains a fan-out whose branches are a side output and the main output, and keeps unchained branches as edges', async () => {
    const graph = await jobGraph((env) => {
      const late = new OutputTag<string>('late');
      const processed = env.fromSource(testSource<string>(), 'src').process(new Split(late));
      processed.getSideOutput(late).map((s) => s).name('late map');
      processed.map((s) => s).name('main map');
      processed.rebalance().map((s) => s).name('rebalanced');
    });
    expect(shape(graph)).toEqual([
      ['src -> Process -> (late map, main map)', 1, [0, 1, 2, 3]],
      ['rebalanced', 1, [4]],
    ]);
    expect(graph.vertices[0]!.outputs.map((e) => [e.sourceNodeId, e.targetNodeId, e.partitioner])).toEqual([[1, 4, 'rebalance']]);
  });

  it('keeps both inputs of a connected operator with their input index', async () => {
    const graph = await jobGraph((env) => {
      const a = env.fromSource(testSource<string>(), 'a');
      const b = env.fromSource(testSource<string>(), 'b');
      a.connect(b)
        .keyBy((s) => s, (s) => s)
        .process({ processElement1: () => {}, processElement2: () => {} } as never)
        .sinkTo(testSink());
    });
    expect(shape(graph)).toEqual([
      ['a', 1, [0]],
      ['b', 1, [1]],
      ['Co-Process -> Sink', 1, [2, 3]],
    ]);
    expect(graph.vertices[2]!.inputs.map((e) => [e.sourceNodeId, e.inputIndex, e.partitioner])).toEqual([
      [0, 0, 'hash'],
      [1, 1, 'hash'],
    ]);
  });

  it('gives each vertex its head operator max parallelism', async () => {
    const graph = await jobGraph((env) => {
      env.fromSource(testSource<string>(), 'a').keyBy((s) => s).process(new CountPerWord()).setMaxParallelism(64).map((s) => s).setMaxParallelism(512);
    });
    expect(graph.vertices.map((v) => [v.name, v.maxParallelism])).toEqual([
      ['a', 128],
      ['KeyedProcess -> Map', 64],
    ]);
  });
});
