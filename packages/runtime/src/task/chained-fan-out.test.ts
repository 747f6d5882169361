import { CoProcessFunction, ProcessFunction, WatermarkStrategy, type Collector, type ProcessContext } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { CollectingSink, runJob } from '../testing/harness.ts';

interface Counter {
  n: number;
}

/** Emits each record's timestamp with its value: what the branch saw. */
class WithTimestamp extends ProcessFunction<Counter, string> {
  override processElement(value: Counter, ctx: ProcessContext, out: Collector<string>): void {
    out.collect(`${value.n}@${ctx.timestamp() ?? '-'}`);
  }
}

/**
 * One source with three outputs: two chained branches (the first changes the record it gets
 * and gives it a timestamp) and a rebalance to another task, which keeps its record in a batch until it is encoded.
 */
async function fanOut(objectReuse: boolean) {
  const mutated = new CollectingSink<string>();
  const untouched = new CollectingSink<string>();
  const shipped = new CollectingSink<number>();
  const sent: Counter[] = [];
  const seen: Counter[] = [];
  const job = await runJob((env) => {
    if (objectReuse) env.getConfig().enableObjectReuse();
    const counters = env.fromCollection([1, 2, 3]).map((n) => {
      const counter = { n };
      sent.push(counter);
      return counter;
    });
    counters
      .map((c) => {
        c.n = -c.n;
        return c;
      })
      .assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<Counter>().withTimestampAssigner((c) => 1000 - c.n))
      .process(new WithTimestamp())
      .sinkTo(mutated);
    counters
      .map((c) => {
        seen.push(c);
        return c;
      })
      .process(new WithTimestamp())
      .sinkTo(untouched);
    counters
      .rebalance()
      .map((c) => c.n)
      .sinkTo(shipped);
  });
  await job.whenAllTerminal();
  return { job, mutated: mutated.values(), untouched: untouched.values(), shipped: shipped.values(), sent, seen };
}

describe('a chained fan-out', () => {
  it('chains both forward branches onto the source, as Flink does, and ships the rebalance', async () => {
    const { job } = await fanOut(false);
    expect(job.jobGraph.vertices.map((v) => v.name)).toEqual([
      'Collection Source -> Map -> (Map -> Timestamps/Watermarks -> Process -> Sink, Map -> Process -> Sink)',
      'Map -> Sink',
    ]);
  });

  it('gives each chained branch its own copy without object reuse: a branch changing its record changes nothing the others get', async () => {
    const { mutated, untouched, shipped, sent, seen } = await fanOut(false);
    expect(mutated).toEqual(['-1@1001', '-2@1002', '-3@1003']);
    // The first branch's timestamp stays in its branch; the record it changed too.
    expect(untouched).toEqual(['1@-', '2@-', '3@-']);
    expect(shipped.sort()).toEqual([1, 2, 3]);
    // A record writer is among the outputs, so no branch got the original.
    expect(sent.map((c) => c.n)).toEqual([1, 2, 3]);
    expect(seen.every((c, i) => c !== sent[i])).toBe(true);
  });

  it('hands every branch the record itself under object reuse, as Flink does', async () => {
    const { untouched, seen, sent } = await fanOut(true);
    expect(seen.every((c, i) => c === sent[i])).toBe(true);
    // The user's side of object reuse: the first branch's change is seen by the second.
    expect(untouched).toEqual(['-1@-', '-2@-', '-3@-']);
  });

  for (const taskManagers of [1, 2]) {
    it(`joins the two branches of a fork in one task: two edges between the same two vertices, two partitions (Nexmark q3's shape, ${taskManagers} TaskManager(s))`, async () => {
      class Pair extends CoProcessFunction<number, number, string> {
        override processElement1(value: number, _ctx: unknown, out: Collector<string>): void {
          out.collect(`even ${value}`);
        }
        override processElement2(value: number, _ctx: unknown, out: Collector<string>): void {
          out.collect(`odd ${value}`);
        }
      }
      const sink = new CollectingSink<string>();
      const job = await runJob(
        (env) => {
          env.setParallelism(2);
          const numbers = env.fromCollection(Array.from({ length: 20 }, (_, i) => i));
          const even = numbers.filter((n) => n % 2 === 0);
          const odd = numbers.filter((n) => n % 2 === 1);
          even
            .connect(odd)
            .keyBy(
              (n) => n % 4,
              (n) => n % 4,
            )
            .process(new Pair())
            .sinkTo(sink);
        },
        { taskManagers },
      );
      await job.whenAllTerminal();
      expect(job.jobGraph.vertices.map((v) => [v.name, v.outputs.length])).toEqual([
        ['Collection Source -> (Filter, Filter)', 2],
        ['Co-Process -> Sink', 0],
      ]);
      expect(sink.values().sort()).toEqual(Array.from({ length: 20 }, (_, i) => `${i % 2 === 0 ? 'even' : 'odd'} ${i}`).sort());
    });
  }
});
