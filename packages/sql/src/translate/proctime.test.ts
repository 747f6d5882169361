import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProcessingTimeTrigger, StreamExecutionEnvironment, TimeWindow } from '@weir/api';
import { StreamTableEnvironment } from '../table-environment.ts';
import { compile } from './compile.ts';
import { windowAssignerOf } from './window-aggregate.ts';

/** The wall clock a processing-time assigner reads, injected. */
const clockAt = (now: number) => ({ getCurrentProcessingTime: () => now }) as never;

describe('processing time (PROCTIME())', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the wall clock when a row is evaluated, typed TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_767_225_612_345);
    const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
    tEnv.executeSql("CREATE TABLE t (a BIGINT, p AS PROCTIME()) WITH ('connector' = 'datagen')");
    expect(tEnv.executeSql('DESCRIBE t').rows[1]!.slice(0, 2)).toEqual(['p', 'TIMESTAMP_LTZ(3) *PROCTIME*']);
    const proctime = compile({ kind: 'call', op: 'PROCTIME', operands: [], type: { root: 'TIMESTAMP_LTZ', nullable: false, precision: 3, proctime: true } });
    expect(proctime([])).toBe(1_767_225_612_345);
    vi.setSystemTime(1_767_225_620_000);
    expect(proctime([])).toBe(1_767_225_620_000);
  });

  it('windows by the wall clock, aligned to the epoch, fired by processing-time timers', () => {
    const tumble = windowAssignerOf({ fn: 'TUMBLE', size: 10_000, proctime: true });
    expect(tumble.isEventTime()).toBe(false);
    expect(tumble.getDefaultTrigger()).toBeInstanceOf(ProcessingTimeTrigger);
    // The row's own time (here 0) does not matter, the clock does.
    expect(tumble.assignWindows({}, 0, clockAt(1_767_225_612_345))).toEqual([new TimeWindow(1_767_225_610_000, 1_767_225_620_000)]);
    expect(tumble.assignWindows({}, 0, clockAt(1_767_225_620_000))).toEqual([new TimeWindow(1_767_225_620_000, 1_767_225_630_000)]);
    const hop = windowAssignerOf({ fn: 'HOP', size: 10_000, slide: 5_000, proctime: true });
    expect(hop.assignWindows({}, 0, clockAt(12_000)).map((w) => [w.start, w.end])).toEqual([
      [10_000, 20_000],
      [5_000, 15_000],
    ]);
    expect(windowAssignerOf({ fn: 'TUMBLE', size: 10_000 }).isEventTime()).toBe(true);
  });

  it('plans a window TVF over PROCTIME() and refuses what it does not support there', () => {
    const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
    tEnv.executeSql("CREATE TABLE t (a BIGINT, p AS PROCTIME()) WITH ('connector' = 'datagen')");
    expect(tEnv.sqlQuery('SELECT a, COUNT(*), window_start FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(p), INTERVAL \'10\' SECOND)) GROUP BY a, window_start, window_end').explain()).toMatch(
      /WindowAggregate\(groupBy=\[a\], window=\[TUMBLE\(time_col=\[proctime\], size=\[10 s\]\)\]/,
    );
    expect(() => tEnv.sqlQuery("SELECT * FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(p), INTERVAL '1' SECOND, INTERVAL '10' SECOND))")).toThrow(
      /line 1, column 50: The window function CUMULATE on a processing-time attribute is not supported/,
    );
    expect(() =>
      tEnv.sqlQuery(
        "SELECT * FROM (SELECT a, window_start, window_end, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY a) AS rn FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(p), INTERVAL '10' SECOND))) WHERE rn <= 3",
      ),
    ).toThrow(/Processing time Window TopN is not supported yet/);
  });
});
