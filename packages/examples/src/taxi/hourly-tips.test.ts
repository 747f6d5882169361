import { describe, expect, it } from 'vitest';
import { CollectSink } from '@weir/testing/job';
import { hourlyTips, type HourlyTips } from '../../jobs/taxi/hourly-tips.ts';
import { BEGINNING, fareStream, taxiFare, type TaxiFare } from '../../jobs/taxi/taxi-data.ts';
import { at, fromTimestamped, runCollecting } from './taxi-test-utils.ts';

const fare = (rideId: number, driverId: number, minute: number, tipCents: number): TaxiFare => ({ ...taxiFare(rideId), driverId, startTime: at(minute), tipCents });
const HOUR = 3_600_000;
const byHour = (tips: HourlyTips[]): HourlyTips[] => [...tips].sort((a, b) => a.windowEnd - b.windowEnd);

describe('hourly tips (flink-training HourlyTipsExercise)', () => {
  it('finds the driver with the most tips in each hour of event time', async () => {
    // BEGINNING is 12:00, on an hour: windows end at 13:00, 14:00, 15:00.
    const fares = [fare(1, 7, 1, 100), fare(2, 8, 5, 300), fare(3, 7, 30, 250), fare(4, 9, 59, 50), fare(5, 8, 61, 10), fare(6, 9, 70, 20), fare(7, 7, 150, 5)];
    const out = await runCollecting<HourlyTips>((env) => void hourlyTips(fromTimestamped(env, fares, (f) => f.startTime, 'fares')).sinkTo(new CollectSink<HourlyTips>('tips')), 'tips');
    // The sink's two subtasks each get some hours: order by hour.
    expect(byHour(out)).toEqual([
      { windowEnd: BEGINNING + HOUR, driverId: 7, tipCents: 350 },
      { windowEnd: BEGINNING + 2 * HOUR, driverId: 9, tipCents: 20 },
      { windowEnd: BEGINNING + 3 * HOUR, driverId: 7, tipCents: 5 },
    ]);
  });

  it('matches a plain computation over the generated fares', async () => {
    const count = 600;
    const out = await runCollecting<HourlyTips>((env) => void hourlyTips(fareStream(env, count)).sinkTo(new CollectSink<HourlyTips>('tips')), 'tips');
    // The same answer without streaming: sum per (hour, driver), then the largest per hour.
    const sums = new Map<number, Map<number, number>>();
    for (let id = 1; id <= count; id++) {
      const f = taxiFare(id);
      const end = Math.floor(f.startTime / HOUR) * HOUR + HOUR;
      const perDriver = sums.get(end) ?? new Map<number, number>();
      perDriver.set(f.driverId, (perDriver.get(f.driverId) ?? 0) + f.tipCents);
      sums.set(end, perDriver);
    }
    const expected = [...sums].map(([windowEnd, perDriver]) => Math.max(...perDriver.values())).map((tipCents, i) => ({ windowEnd: [...sums.keys()][i], tipCents }));
    expect(byHour(out).map((t) => ({ windowEnd: t.windowEnd, tipCents: t.tipCents }))).toEqual(expected);
    for (const t of out) expect(sums.get(t.windowEnd)!.get(t.driverId)).toBe(t.tipCents);
  });
});
