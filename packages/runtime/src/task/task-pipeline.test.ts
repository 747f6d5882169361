import {
  CoProcessFunction,
  Types,
  ValueStateDescriptor,
  type Collector,
  type KeyedProcessContext,
  type ValueState,
} from '@weir/api';
import { describe, expect, it } from 'vitest';
import { CollectingSink, runJob, states } from '../testing/harness.ts';
import { CountPerKey } from '../testing/checkpoint-fixtures.ts';


const WORDS = Array.from({ length: 3000 }, (_, i) => `w${i % 37}`);

function expectedCounts(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

function finalCounts(records: readonly [string, number][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [key, count] of records) counts.set(key, Math.max(counts.get(key) ?? 0, count));
  return counts;
}

describe('a job of several tasks in one process', () => {
  it('counts per key exactly: source -> map -> hash -> keyed count -> sink at parallelism 2', async () => {
    const sink = new CollectingSink<[string, number]>();
    const job = await runJob((env) => {
      env.setParallelism(2);
      env
        .fromCollection(WORDS)
        .map((w) => w.toUpperCase())
        .keyBy((w) => w)
        .process(new CountPerKey())
        .sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(job.jobGraph.vertices.map((v) => v.operators.map((o) => o.kind))).toEqual([
      ['source', 'map'],
      ['keyedProcess', 'sink'],
    ]);
    expect(job.registered.map((p) => [p.producerSubtask, p.consumerVertexId])).toEqual([
      [0, job.jobGraph.vertices[1]!.id],
      [1, job.jobGraph.vertices[1]!.id],
    ]);
    expect(finalCounts(sink.values())).toEqual(expectedCounts(WORDS.map((w) => w.toUpperCase())));
    expect(sink.records).toHaveLength(WORDS.length);
    for (const tasks of job.tasks.values()) {
      for (const task of tasks) expect(states(job.changes.get(task))).toEqual(['INITIALIZING', 'RUNNING', 'FINISHED']);
    }
  });

  it('gives the same counts across TaskManagers (payloads copied, as over gRPC), consumers deployed first', async () => {
    const sink = new CollectingSink<[string, number]>();
    const job = await runJob(
      (env) => {
        env.setParallelism(2);
        env
          .fromCollection(WORDS)
          .keyBy((w) => w)
          .process(new CountPerKey())
          .sinkTo(sink);
      },
      { taskManagers: 2, consumersFirst: true },
    );
    await job.whenAllTerminal();
    expect(finalCounts(sink.values())).toEqual(expectedCounts(WORDS));
    expect(job.connector.copiedBuffers).toBeGreaterThan(0);
    expect([...job.tasks.values()].flat().map((t) => t.state)).toEqual(['FINISHED', 'FINISHED', 'FINISHED', 'FINISHED']);
  });

  it('reduces per key, emitting the new accumulated value per record', async () => {
    const sink = new CollectingSink<{ key: string; n: number }>();
    const job = await runJob((env) => {
      env.setParallelism(2);
      env
        .fromCollection(WORDS.map((w) => ({ key: w, n: 1 })))
        .keyBy((r) => r.key)
        .reduce((a, b) => ({ key: a.key, n: a.n + b.n }))
        .sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(sink.records).toHaveLength(WORDS.length);
    expect(finalCounts(sink.values().map((r) => [r.key, r.n]))).toEqual(expectedCounts(WORDS));
  });

  it('rebalances round-robin from a subtask-dependent offset', async () => {
    const sink = new CollectingSink<number>();
    const job = await runJob((env) => {
      env.fromCollection([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).setParallelism(1).rebalance().map((x) => x).setParallelism(3).sinkTo(sink).setParallelism(3);
    });
    await job.whenAllTerminal();
    const bySubtask = [0, 1, 2].map((s) => sink.records.filter((r) => r.subtask === s).map((r) => r.record));
    expect(bySubtask).toEqual([
      [0, 3, 6, 9],
      [1, 4, 7],
      [2, 5, 8],
    ]);
  });

  it('broadcasts every record to every consumer subtask', async () => {
    const sink = new CollectingSink<string>();
    const job = await runJob((env) => {
      env.fromCollection(['a', 'b', 'c', 'd']).setParallelism(2).broadcast().map((x) => x).setParallelism(3).sinkTo(sink).setParallelism(3);
    });
    await job.whenAllTerminal();
    for (let s = 0; s < 3; s++) {
      expect(sink.records.filter((r) => r.subtask === s).map((r) => r.record).sort()).toEqual(['a', 'b', 'c', 'd']);
    }
  });

  it('unions two sources into one operator', async () => {
    const sink = new CollectingSink<string>();
    const job = await runJob((env) => {
      env.setParallelism(2);
      const left = env.fromCollection(['l1', 'l2', 'l3']);
      const right = env.fromCollection(['r1', 'r2', 'r3', 'r4']);
      left.union(right).map((x) => x.toUpperCase()).sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(sink.values().sort()).toEqual(['L1', 'L2', 'L3', 'R1', 'R2', 'R3', 'R4']);
  });

  it('connects two keyed streams into a CoProcessFunction with shared keyed state', async () => {
    class Tally extends CoProcessFunction<string, number, string> {
      #seen!: ValueState<number>;
      override open(): void {
        this.#seen = this.getRuntimeContext().getState(new ValueStateDescriptor('seen', Types.NUMBER));
      }
      override processElement1(value: string, ctx: KeyedProcessContext<unknown>, out: Collector<string>): void {
        this.#bump(`1:${value}`, ctx, out);
      }
      override processElement2(value: number, ctx: KeyedProcessContext<unknown>, out: Collector<string>): void {
        this.#bump(`2:${value}`, ctx, out);
      }
      #bump(tag: string, ctx: KeyedProcessContext<unknown>, out: Collector<string>): void {
        const seen = (this.#seen.value() ?? 0) + 1;
        this.#seen.update(seen);
        out.collect(`${String(ctx.getCurrentKey())} ${tag} #${seen}`);
      }
    }
    const sink = new CollectingSink<string>();
    const job = await runJob((env) => {
      env.setParallelism(2);
      const words = env.fromCollection(['a', 'b', 'a', 'c']);
      const lengths = env.fromCollection([1, 2, 1, 1, 3]);
      words
        .connect(lengths)
        .keyBy(
          (w) => w.charCodeAt(0) - 96,
          (n) => n,
        )
        .process(new Tally())
        .sinkTo(sink);
    });
    await job.whenAllTerminal();
    const out = sink.values();
    expect(out.filter((s) => s.includes(' 1:')).map((s) => s.split(' #')[0]).sort()).toEqual(['1 1:a', '1 1:a', '2 1:b', '3 1:c']);
    expect(out.filter((s) => s.includes(' 2:')).map((s) => s.split(' #')[0]).sort()).toEqual(['1 2:1', '1 2:1', '1 2:1', '2 2:2', '3 2:3']);
    const lastPerKey = new Map<string, number>();
    for (const s of out) lastPerKey.set(s.split(' ')[0]!, Math.max(lastPerKey.get(s.split(' ')[0]!) ?? 0, Number(s.split('#')[1])));
    expect(Object.fromEntries(lastPerKey)).toEqual({ '1': 5, '2': 2, '3': 2 });
  });

  it('chains forward operators into one task with no partition between them', async () => {
    const sink = new CollectingSink<number>();
    const job = await runJob((env) => {
      env.setParallelism(2);
      env
        .fromCollection([1, 2, 3, 4, 5, 6])
        .map((x) => x * 10)
        .filter((x) => x !== 30)
        .flatMap((x: number, out) => {
          out.collect(x);
          out.collect(x + 1);
        })
        .sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(job.jobGraph.vertices).toHaveLength(1);
    expect(job.jobGraph.vertices[0]!.operators.map((o) => o.kind)).toEqual(['source', 'map', 'filter', 'flatMap', 'sink']);
    expect(job.registered).toEqual([]);
    expect(sink.records.filter((r) => r.subtask === 0).map((r) => r.record)).toEqual([10, 11, 20, 21]);
    expect(sink.records.filter((r) => r.subtask === 1).map((r) => r.record)).toEqual([40, 41, 50, 51, 60, 61]);
    expect(sink.events.sort()).toEqual(['close 0', 'close 1', 'flush(true) 0', 'flush(true) 1']);
  });
});
