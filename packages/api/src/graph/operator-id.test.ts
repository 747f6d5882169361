import { describe, expect, it } from 'vitest';
import { buildStreamGraph } from './build-stream-graph.ts';
import { operatorIdForUid, operatorsWithoutUid } from './operator-id.ts';
import type { StreamExecutionEnvironment } from '../environment/stream-execution-environment.ts';
import { DEFAULTS, testSink, testSource, wordCount } from '../testing/fixtures.ts';

function noUids(env: StreamExecutionEnvironment, args: string[]): void {
  const words = env.fromSource(testSource<string>(), 'lines').flatMap<string>((l, out) => out.collect(l));
  words.map((w) => w).sinkTo(testSink());
  if (args.includes('extra-branch')) words.filter(() => true).sinkTo(testSink());
  words.map((w) => w.length).name(args.includes('renamed') ? 'Length' : 'Map').setParallelism(args.includes('rescaled') ? 3 : 1);
}

async function ids(main: (env: StreamExecutionEnvironment, args: string[]) => void, args: string[] = []): Promise<string[]> {
  return (await buildStreamGraph(main, args, DEFAULTS)).nodes.map((n) => n.operatorId);
}

describe('operator IDs', () => {
  it('hashes a uid to the first 32 hex chars of its sha256, the same in every version', () => {
    expect(operatorIdForUid('lines')).toBe('5ea44c3961f16643e614435496b16115');
    expect(operatorIdForUid('count')).toBe('6c35493a2b937829c9815c39e23af964');
  });

  it('uses the uid hash for operators with a uid', async () => {
    const graph = await buildStreamGraph(wordCount, ['2'], DEFAULTS);
    expect(graph.nodes.map((n) => n.operatorId)).toEqual(['lines', 'split', 'count', 'sink'].map(operatorIdForUid));
    expect(operatorsWithoutUid(graph)).toEqual([]);
  });

  it('generates the same IDs for the same job, built twice', async () => {
    const first = await ids(noUids);
    const second = await ids(noUids);
    expect(first).toEqual(second);
    expect(new Set(first).size).toBe(first.length);
    for (const id of first) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps generated IDs when operators are renamed, rescaled, or another branch is added', async () => {
    const base = await ids(noUids);
    expect(await ids(noUids, ['renamed', 'rescaled'])).toEqual(base);
    const withBranch = await ids(noUids, ['extra-branch']);
    // The filter and its sink are new nodes 4 and 5; the operators that existed before keep their IDs.
    expect([...withBranch.slice(0, 4), withBranch[6]]).toEqual(base);
  });

  it('tells apart two operators of the same kind on the same input', async () => {
    const graph = await buildStreamGraph(
      (env) => {
        const source = env.fromElements(1);
        source.map((x) => x);
        source.map((x) => x);
      },
      [],
      DEFAULTS,
    );
    expect(graph.nodes[1]!.operatorId).not.toBe(graph.nodes[2]!.operatorId);
  });

  it('lists the operators without a uid', async () => {
    const graph = await buildStreamGraph(
      (env) => {
        env.fromElements(1).uid('numbers').map((x) => x).sinkTo(testSink()).uid('out');
      },
      [],
      DEFAULTS,
    );
    expect(operatorsWithoutUid(graph).map((n) => n.id)).toEqual([1]);
  });
});
