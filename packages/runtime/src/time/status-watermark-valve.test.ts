import { describe, expect, it } from 'vitest';
import { StatusWatermarkValve } from './status-watermark-valve.ts';

function valve(channels: number) {
  const out: (number | 'idle' | 'active')[] = [];
  const v = new StatusWatermarkValve(channels, {
    emitWatermark: (ts) => out.push(ts),
    emitWatermarkStatus: (idle) => out.push(idle ? 'idle' : 'active'),
  });
  return { v, out };
}

describe('StatusWatermarkValve', () => {
  it('outputs the minimum over all channels, only when it rises', () => {
    const { v, out } = valve(3);
    v.inputWatermark(10, 0);
    v.inputWatermark(20, 1);
    expect(out).toEqual([]);
    v.inputWatermark(5, 2);
    expect(out).toEqual([5]);
    v.inputWatermark(30, 2);
    expect(out).toEqual([5, 10]);
    v.inputWatermark(8, 0);
    v.inputWatermark(10, 0);
    expect(out).toEqual([5, 10]);
    v.inputWatermark(25, 0);
    expect(out).toEqual([5, 10, 20]);
    expect(v.currentWatermark).toBe(20);
  });

  it('lets an idle channel no longer hold the watermark back', () => {
    const { v, out } = valve(2);
    v.inputWatermark(10, 0);
    v.inputWatermark(3, 1);
    expect(out).toEqual([3]);
    v.inputWatermarkStatus(true, 1);
    expect(out).toEqual([3, 10]);
    v.inputWatermark(15, 0);
    expect(out).toEqual([3, 10, 15]);
    // Watermarks on an idle channel are ignored.
    v.inputWatermark(100, 1);
    expect(out).toEqual([3, 10, 15]);
  });

  it('goes idle when every channel is idle, flushing the highest watermark first, and active with the first active channel', () => {
    const { v, out } = valve(2);
    v.inputWatermark(10, 0);
    v.inputWatermark(20, 1);
    v.inputWatermarkStatus(true, 0);
    expect(out).toEqual([10, 20]);
    v.inputWatermarkStatus(true, 1);
    expect(out).toEqual([10, 20, 'idle']);
    expect(v.isIdle).toBe(true);
    v.inputWatermarkStatus(false, 0);
    expect(out).toEqual([10, 20, 'idle', 'active']);
  });

  it('does not let a channel returning from idleness pull the watermark back: it counts once it caught up', () => {
    const { v, out } = valve(2);
    v.inputWatermark(5, 0);
    v.inputWatermark(50, 1);
    v.inputWatermarkStatus(true, 0);
    expect(out).toEqual([5, 50]);
    v.inputWatermarkStatus(false, 0);
    // Channel 0 is behind at 5: it does not count, and 1 moves the watermark alone.
    v.inputWatermark(60, 1);
    expect(out).toEqual([5, 50, 60]);
    v.inputWatermark(40, 0);
    v.inputWatermark(70, 1);
    expect(out).toEqual([5, 50, 60, 70]);
    // Caught up: from now on channel 0 holds the minimum again.
    v.inputWatermark(75, 0);
    v.inputWatermark(90, 1);
    expect(out).toEqual([5, 50, 60, 70, 75]);
  });

  it('starts with no watermark and passes the final watermark once every channel sent it', () => {
    const { v, out } = valve(2);
    expect(v.currentWatermark).toBe(Number.NEGATIVE_INFINITY);
    v.inputWatermark(Number.POSITIVE_INFINITY, 0);
    expect(out).toEqual([]);
    v.inputWatermark(Number.POSITIVE_INFINITY, 1);
    expect(out).toEqual([Number.POSITIVE_INFINITY]);
  });

  it('with one channel passes every rising watermark', () => {
    const { v, out } = valve(1);
    v.inputWatermark(1, 0);
    v.inputWatermark(1, 0);
    v.inputWatermark(2, 0);
    expect(out).toEqual([1, 2]);
  });
});
