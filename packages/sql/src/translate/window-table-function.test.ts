import { describe, expect, it } from 'vitest';
import type { ProcessContext } from '@weir/api';
import type { Row } from '../row.ts';
import { windowAssignerOf } from './window-aggregate.ts';
import { WindowTableFunction } from './window-table-function.ts';

/** A context whose processing-time service reads `now`: the task's clock, not the wall clock. */
function contextAt(now: number): ProcessContext {
  return { subtaskIndex: 0, timestamp: () => undefined, timerService: () => ({ currentProcessingTime: () => now }), output: () => {} } as unknown as ProcessContext;
}

function windowsOf(fn: WindowTableFunction, row: Row, ctx: ProcessContext): (readonly unknown[])[] {
  const out: Row[] = [];
  fn.processElement(row, ctx, { collect: (r: Row) => out.push(r) } as never);
  return out.map((r) => r.fields);
}

describe('WindowTableFunction', () => {
  it('appends window_start, window_end and window_time for each event-time window of the row', () => {
    const hop = new WindowTableFunction(windowAssignerOf({ fn: 'HOP', size: 10_000, slide: 5_000 }), 1);
    expect(windowsOf(hop, { kind: '+I', fields: ['a', 12_000] }, contextAt(0))).toEqual([
      ['a', 12_000, 10_000, 20_000, 19_999],
      ['a', 12_000, 5_000, 15_000, 14_999],
    ]);
  });

  it("assigns processing-time windows by the task's processing-time service, not Date.now()", () => {
    const tumble = new WindowTableFunction(windowAssignerOf({ fn: 'TUMBLE', size: 10_000, proctime: true }), 1);
    expect(windowsOf(tumble, { kind: '+I', fields: ['b', 0] }, contextAt(42_000))).toEqual([['b', 0, 40_000, 50_000, 49_999]]);
  });
});
