import { describe, expect, it } from 'vitest';
import { buildStreamGraph, DEFAULT_ENVIRONMENT, StreamExecutionEnvironment } from '@weir/api';
import { NEXMARK_QUERIES, NEXMARK_VIEWS, nexmarkDdl, nexmarkSelect } from '../nexmark/queries.ts';
import { StreamTableEnvironment } from '../table-environment.ts';

function nexmarkEnv(env = new StreamExecutionEnvironment()): StreamTableEnvironment {
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(nexmarkDdl({ 'events.num': '1000' }));
  for (const view of NEXMARK_VIEWS) tEnv.executeSql(view);
  return tEnv;
}

describe('sub-plan reuse', () => {
  it("computes q5's HOP count once for both of its readers (reuse_id / Reused on the WindowAggregate)", async () => {
    const plan = nexmarkEnv().sqlQuery(nexmarkSelect('q5')).explain();
    const physical = plan.slice(plan.indexOf('== Optimized Physical Plan =='));
    expect(physical).toMatch(/WindowAggregate\(groupBy=\[auction\], window=\[HOP.*\)\(reuse_id=\[1\]\), changelogMode=\[I\]/);
    expect(physical).toContain('Reused(reference_id=[1])');
    expect(physical.match(/WindowAggregate|TableSourceScan/g)).toEqual(['WindowAggregate', 'TableSourceScan']);
    const graph = await buildStreamGraph(
      (env) => {
        const tEnv = nexmarkEnv(env);
        for (const statement of NEXMARK_QUERIES.q5!) tEnv.executeSql(statement);
      },
      [],
      DEFAULT_ENVIRONMENT,
    );
    expect(graph.nodes.filter((n) => /^(WindowAggregate|TableSourceScan)/.test(n.name)).map((n) => n.name.replace(/\[\d+\]/, ''))).toEqual(['TableSourceScan[nexmark]', 'WindowAggregate']);
  });

  it("keeps apart subtrees that differ, and every other operator's uid where it was (its place in the plan)", async () => {
    const uids = async (statements: readonly string[]) => {
      const graph = await buildStreamGraph(
        (env) => {
          const tEnv = nexmarkEnv(env);
          for (const statement of statements) tEnv.executeSql(statement);
        },
        [],
        DEFAULT_ENVIRONMENT,
      );
      return graph.nodes.map((n) => n.uid?.replace(/^sql-\w+-/, '')).filter((u) => u !== undefined);
    };
    // q5 in pre-order: calc 0, join 1 (its insert-only side appends: its own uid), calc 2, windowAggregate 3, calc 4, scan 5, then calc 6, aggregate 7, calc 8 over the reused 9-11.
    expect(await uids(NEXMARK_QUERIES.q5!)).toEqual(['scan-5-source', 'scan-5-row', 'calc-4', 'windowAggregate-3', 'calc-2', 'calc-8', 'aggregate-7', 'calc-6', 'join-1-append', 'calc-0', 'sink-sink']);
    // q7's two readers of bid differ (all columns; the price only): only the scan is shared, as before.
    expect((await uids(NEXMARK_QUERIES.q7!)).filter((u) => u.startsWith('calc'))).toHaveLength(4);
  });

  it('makes the second of two equal inputs of one operator again (a UNION ALL or a self-join of equal subqueries), as an operator reads a stream once', async () => {
    const names = async (select: string) => {
      const graph = await buildStreamGraph(
        (env) => {
          const tEnv = nexmarkEnv(env);
          tEnv.executeSql("CREATE TABLE out2 (a BIGINT, b BIGINT) WITH ('connector' = 'blackhole')");
          tEnv.executeSql(`INSERT INTO out2 ${select}`);
        },
        [],
        DEFAULT_ENVIRONMENT,
      );
      return graph.nodes.map((n) => n.name.replace(/\[\d+\]/, ''));
    };
    const union = await names('SELECT auction, price FROM bid UNION ALL SELECT auction, price FROM bid');
    expect(union.filter((n) => n === 'Calc')).toHaveLength(2);
    expect(union.filter((n) => n.startsWith('TableSourceScan'))).toHaveLength(1);
    const selfJoin = await names('SELECT a.auction, b.price FROM (SELECT auction, price FROM bid) a JOIN (SELECT auction, price FROM bid) b ON a.auction = b.auction');
    expect(selfJoin.filter((n) => n === 'Join')).toHaveLength(1);
    const plan = nexmarkEnv().sqlQuery('SELECT auction, price FROM bid UNION ALL SELECT auction, price FROM bid').explain();
    expect(plan.slice(plan.indexOf('== Optimized')).match(/Calc\(/g)).toHaveLength(2);
  });
});
