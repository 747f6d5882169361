import { describe, expect, it } from 'vitest';
import { errorOf } from '../testing/fixtures.ts';
import type { Watermark, WatermarkOutput } from './watermark.ts';
import { WatermarkStrategy } from './watermark-strategy.ts';

function recording() {
  const seen: (number | 'idle' | 'active')[] = [];
  const output: WatermarkOutput = {
    emitWatermark: (w: Watermark) => void seen.push(w.timestamp),
    markIdle: () => void seen.push('idle'),
    markActive: () => void seen.push('active'),
  };
  return { seen, output };
}

function context(now: () => number) {
  return { getInputActivityClock: () => ({ relativeTimeMillis: now }) };
}

describe('WatermarkStrategy', () => {
  it('forBoundedOutOfOrderness: the highest timestamp seen minus the bound minus 1, emitted periodically', () => {
    const generator = WatermarkStrategy.forBoundedOutOfOrderness<number>(100).createWatermarkGenerator(context(() => 0));
    const { seen, output } = recording();
    generator.onPeriodicEmit(output);
    generator.onEvent(0, 1_000, output);
    generator.onEvent(0, 500, output);
    expect(seen).toEqual([Number.NEGATIVE_INFINITY]);
    generator.onPeriodicEmit(output);
    generator.onEvent(0, 1_200, output);
    generator.onPeriodicEmit(output);
    expect(seen).toEqual([Number.NEGATIVE_INFINITY, 899, 1_099]);
  });

  it('forMonotonousTimestamps: the highest timestamp minus 1', () => {
    const generator = WatermarkStrategy.forMonotonousTimestamps<number>().createWatermarkGenerator(context(() => 0));
    const { seen, output } = recording();
    generator.onEvent(0, 7, output);
    generator.onPeriodicEmit(output);
    expect(seen).toEqual([6]);
  });

  it('withIdleness marks the output idle after the timeout without events, and emits again on the next event', () => {
    let now = 0;
    const generator = WatermarkStrategy.forMonotonousTimestamps<number>().withIdleness(1_000).createWatermarkGenerator(context(() => now));
    const { seen, output } = recording();
    generator.onEvent(0, 10, output);
    generator.onPeriodicEmit(output);
    now = 500;
    generator.onPeriodicEmit(output);
    now = 1_400;
    generator.onPeriodicEmit(output);
    now = 1_600;
    generator.onPeriodicEmit(output);
    generator.onEvent(0, 20, output);
    generator.onPeriodicEmit(output);
    expect(seen).toEqual([9, 9, 9, 'idle', 19]);
  });

  it('takes the record timestamp without an assigner and the assigner\'s with one; strategies are immutable', () => {
    const base = WatermarkStrategy.forMonotonousTimestamps<{ t: number }>();
    const assigned = base.withTimestampAssigner((e) => e.t);
    expect(base.createTimestampAssigner(context(() => 0)).extractTimestamp({ t: 5 }, 42)).toBe(42);
    expect(assigned.createTimestampAssigner(context(() => 0)).extractTimestamp({ t: 5 }, 42)).toBe(5);
    expect(base.assignsTimestamps).toBe(false);
    expect(assigned.assignsTimestamps).toBe(true);
    expect(WatermarkStrategy.noWatermarks().emitsWatermarks).toBe(false);
    expect(WatermarkStrategy.noWatermarks().withIdleness(10).emitsWatermarks).toBe(true);
  });

  it('forGenerator takes a supplier of the user\'s generator', () => {
    const strategy = WatermarkStrategy.forGenerator<number>(() => ({ onEvent: (_e, ts, out) => out.markActive(), onPeriodicEmit: (out) => out.markIdle() }));
    const { seen, output } = recording();
    const generator = strategy.createWatermarkGenerator(context(() => 0));
    generator.onEvent(1, 1, output);
    generator.onPeriodicEmit(output);
    expect(seen).toEqual(['active', 'idle']);
  });

  it('refuses bounds, timeouts and assigners of the wrong shape', () => {
    expect(errorOf(() => WatermarkStrategy.forBoundedOutOfOrderness(-1))).toEqual({
      code: 'INVALID_WATERMARK_STRATEGY',
      message: 'forBoundedOutOfOrderness() takes a whole number of milliseconds >= 0, got -1',
    });
    expect(errorOf(() => WatermarkStrategy.forMonotonousTimestamps().withIdleness(0)).code).toBe('INVALID_WATERMARK_STRATEGY');
    expect(errorOf(() => WatermarkStrategy.forMonotonousTimestamps().withTimestampAssigner(7 as never)).code).toBe('INVALID_FUNCTION');
    expect(errorOf(() => WatermarkStrategy.forGenerator('x' as never)).code).toBe('INVALID_FUNCTION');
  });
});
