import { describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from '@weir/api';
import { KeyedFunctionHarness, row } from './testing/keyed-function.ts';
import { parseDuration } from './table-config.ts';
import { StreamTableEnvironment } from './table-environment.ts';
import { GroupAggregateFunction } from './translate/group-aggregate.ts';
import { accumulatorOf } from './translate/aggregates.ts';
import { T } from './validate/types.ts';

describe('TableConfig and SET', () => {
  it("SET 'key' = 'value' sets the table config, a bare SET lists it, RESET clears it; table.exec.state.ttl takes Flink's durations", () => {
    const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
    expect(tEnv.executeSql("SET 'table.exec.state.ttl' = '1 h'").toString()).toBe('OK');
    tEnv.executeSql("SET 'pipeline.name' = 'totals'");
    expect(tEnv.executeSql('SET').rows).toEqual([['pipeline.name', 'totals'], ['table.exec.state.ttl', '1 h']]);
    expect(tEnv.getConfig().stateTtl()?.ttlMs).toBe(3_600_000);
    tEnv.executeSql("RESET 'table.exec.state.ttl'");
    expect(tEnv.getConfig().stateTtl()).toBeUndefined();
    expect(() => tEnv.executeSql("SET 'table.exec.state.ttl' = 'soon'")).toThrow("'table.exec.state.ttl' takes a duration such as '1 h', '30 min', '10 s' or '500 ms', got 'soon'");
    expect([parseDuration('30min', 'k'), parseDuration('10 s', 'k'), parseDuration('250', 'k'), parseDuration('2 days', 'k')]).toEqual([1_800_000, 10_000, 250, 172_800_000]);
    tEnv.getConfig().set('table.exec.state.ttl', '0');
    expect(tEnv.getConfig().stateTtl()).toBeUndefined();
  });

  it("with a state TTL, an aggregate's state expires (its descriptor says so) and an unchanged result is emitted again, as Flink's GroupAggFunction", () => {
    const h = new KeyedFunctionHarness();
    const ttl = (() => {
      const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
      tEnv.getConfig().set('table.exec.state.ttl', '10 s');
      return tEnv.getConfig().stateTtl()!;
    })();
    const ttls: Array<number | undefined> = [];
    const context = { ...h.runtimeContext, getState: (d: { getTtlConfig(): { ttlMs: number } | undefined }) => (ttls.push(d.getTtlConfig()?.ttlMs), h.runtimeContext.getState(d as never)) };
    const max = { fn: 'MAX', arg: 1, distinct: false, type: T.INT, name: 'm' } as const;
    const fn = new GroupAggregateFunction([0], [1], [accumulatorOf(max, T.INT)], ttl);
    fn.setRuntimeContext(context as never);
    fn.open();
    for (const v of [5, 3]) fn.processElement(row('+I', 'k', v), h.context as never, h.collector);
    expect(h.take()).toEqual(['+I["k",5]', '-U["k",5]', '+U["k",5]']);
    expect(ttls).toEqual([10_000]);
  });
});
