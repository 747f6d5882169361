import { describe, expect, it } from 'vitest';
import { buildStreamGraph } from '../graph/build-stream-graph.ts';
import { DEFAULTS, environment, errorOf, testSource } from '../testing/fixtures.ts';
import type { StreamExecutionEnvironment } from '../environment/stream-execution-environment.ts';
import { BroadcastProcessFunction, KeyedBroadcastProcessFunction } from '../functions/broadcast.ts';
import { AsyncRetryStrategies, RetryPredicates, TimeUnit, type AsyncWaitSettings } from '../functions/async.ts';
import { MapStateDescriptor } from '../state/types.ts';
import { Types } from '../types/types.ts';
import { AsyncDataStream } from './async-data-stream.ts';
import { BroadcastStream } from './broadcast-stream.ts';

const RULES = new MapStateDescriptor<string, number>('rules', Types.STRING, Types.NUMBER);

class Plain extends BroadcastProcessFunction<string, number, string> {
  processElement(): void {}
  processBroadcastElement(): void {}
}
class Keyed extends KeyedBroadcastProcessFunction<string, string, number, string> {
  processElement(): void {}
  processBroadcastElement(): void {}
}

describe('broadcast state pattern (graph)', () => {
  it('broadcast(descriptor) makes a BroadcastStream; connect + process adds a two-input operator with a BROADCAST edge', async () => {
    const graph = await buildStreamGraph((env: StreamExecutionEnvironment) => {
      const rules = env.fromSource(testSource<number>(), 'rules').broadcast(RULES);
      expect(rules).toBeInstanceOf(BroadcastStream);
      const events = env.fromSource(testSource<string>(), 'events');
      events.keyBy((e) => e).connect(rules).process(new Keyed()).uid('alerts');
      events.connect(rules).process(new Plain());
      env.execute('broadcast');
    }, [], { ...DEFAULTS, parallelism: 2 });
    const [keyed, plain] = graph.nodes.filter((n) => n.spec.kind === 'broadcastProcess');
    expect([keyed!.name, plain!.name]).toEqual(['Co-Process-Broadcast-Keyed', 'Co-Process-Broadcast']);
    expect(keyed!.inputs.map((e) => [e.inputIndex, e.partitioner])).toEqual([[0, 'hash'], [1, 'broadcast']]);
    expect(plain!.inputs.map((e) => [e.inputIndex, e.partitioner])).toEqual([[0, 'forward'], [1, 'broadcast']]);
    expect((keyed!.spec as { readonly descriptors?: readonly unknown[] }).descriptors).toEqual([RULES]);
  });

  it('refuses a function of the wrong kind and broadcast() arguments that are no MapStateDescriptors', () => {
    const env = environment();
    const rules = env.fromSource(testSource<number>(), 'rules').broadcast(RULES);
    const events = env.fromSource(testSource<string>(), 'events');
    expect(errorOf(() => events.keyBy((e) => e).connect(rules).process(new Plain() as never)).message).toContain('takes a KeyedBroadcastProcessFunction');
    expect(errorOf(() => events.connect(rules).process(new Keyed() as never)).code).toBe('INVALID_BROADCAST_STATE');
    const source = env.fromSource(testSource<number>(), 'more');
    expect(errorOf(() => source.broadcast({ name: 'x' } as never)).code).toBe('INVALID_BROADCAST_STATE');
    expect(errorOf(() => source.broadcast(RULES, new MapStateDescriptor('rules', Types.STRING, Types.STRING))).message).toContain("two descriptors named 'rules'");
  });
});

describe('AsyncDataStream (graph)', () => {
  it('adds an async wait operator with its settings; the unit scales the timeout', async () => {
    const retry = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<string>(3, 100).ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build();
    const graph = await buildStreamGraph((env: StreamExecutionEnvironment) => {
      const input = env.fromSource(testSource<string>(), 'in');
      AsyncDataStream.orderedWait(input, async (s: string) => [s.length], 2, TimeUnit.SECONDS, 5);
      AsyncDataStream.unorderedWaitWithRetry(input, async (s: string) => [s], 50, TimeUnit.MILLISECONDS, 10, retry);
      env.execute('async');
    }, [], DEFAULTS);
    const settings = graph.nodes.filter((n) => n.spec.kind === 'asyncWait').map((n) => (n.spec as { settings: AsyncWaitSettings }).settings);
    expect(settings.map(({ mode, timeoutMs, capacity, retry: r }) => [mode, timeoutMs, capacity, r !== undefined])).toEqual([
      ['ordered', 2000, 5, false],
      ['unordered', 50, 10, true],
    ]);
  });

  it('refuses a timeout, capacity or function out of range with INVALID_ASYNC_SETTINGS', () => {
    const input = environment().fromSource(testSource<string>(), 'in');
    const fn = async (s: string) => [s];
    expect(errorOf(() => AsyncDataStream.orderedWait(input, fn, 0)).message).toContain('the async timeout must be > 0');
    expect(errorOf(() => AsyncDataStream.orderedWait(input, fn, 10, TimeUnit.MILLISECONDS, 0)).code).toBe('INVALID_ASYNC_SETTINGS');
    expect(errorOf(() => AsyncDataStream.orderedWait(input, fn, 10, 'WEEKS' as never)).code).toBe('INVALID_ASYNC_SETTINGS');
    expect(errorOf(() => AsyncDataStream.orderedWait(input, {} as never, 10)).code).toBe('INVALID_ASYNC_SETTINGS');
    expect(errorOf(() => new AsyncRetryStrategies.ExponentialBackoffDelayRetryStrategyBuilder(3, 10, 100, 0.5)).code).toBe('INVALID_ASYNC_SETTINGS');
  });
});
