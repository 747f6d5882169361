import { describe, expect, it } from 'vitest';
import { DescriptiveStatisticsHistogram } from './descriptive-statistics-histogram.ts';
import { MeterView } from './meter-view.ts';

describe('MeterView', () => {
  it('gives the events per second over its time span, 0 before two samples', () => {
    const meter = new MeterView(10);
    meter.update(0);
    expect(meter.getRate()).toBe(0);
    meter.markEvent(50);
    meter.update(5_000);
    expect(meter.getRate()).toBe(10);
    meter.markEvent(200);
    meter.update(10_000);
    meter.update(20_000);
    expect(meter.getRate()).toBe(0);
    expect(meter.getCount()).toBe(250);
  });
});

describe('DescriptiveStatisticsHistogram', () => {
  it('keeps the last windowSize values and gives their statistics', () => {
    const histogram = new DescriptiveStatisticsHistogram(4);
    for (const v of [100, 1, 2, 3, 4]) histogram.update(v);
    const stats = histogram.getStatistics();
    expect(histogram.getCount()).toBe(5);
    expect([stats.size(), stats.getMin(), stats.getMax(), stats.getMean()]).toEqual([4, 1, 4, 2.5]);
    expect(stats.getQuantile(0.5)).toBe(2.5);
  });
});
