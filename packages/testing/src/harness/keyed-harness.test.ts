import { describe, expect, it } from 'vitest';
import { KeyedProcessFunction, OutputTag, Types, ValueStateDescriptor, type Collector, type KeyedProcessContext, type OnTimerContext, type ValueState } from '@weir/api';
import { KeyedOneInputStreamOperatorTestHarness } from './keyed-harness.ts';

interface Reading {
  readonly sensor: string;
  readonly celsius: number;
}

const tooHot = new OutputTag<string>('too-hot', Types.STRING);
const sumDescriptor = new ValueStateDescriptor('sum', Types.NUMBER);

/** Sums per sensor; emits the sum at an event-time timer 10 ms after the first reading, and a reading over 40 to a side output. */
class SumUntilTimer extends KeyedProcessFunction<string, Reading, string> {
  #sum!: ValueState<number>;

  override open(): void {
    this.#sum = this.getRuntimeContext().getState(sumDescriptor);
  }

  override processElement(reading: Reading, ctx: KeyedProcessContext<string>, _out: Collector<string>): void {
    const before = this.#sum.value();
    if (before === undefined) ctx.timerService().registerEventTimeTimer(ctx.timestamp()! + 10);
    this.#sum.update((before ?? 0) + reading.celsius);
    if (reading.celsius > 40) ctx.output(tooHot, reading.sensor);
  }

  override onTimer(timestamp: number, ctx: OnTimerContext<string>, out: Collector<string>): void {
    out.collect(`${ctx.getCurrentKey()}@${timestamp}: ${this.#sum.value()}`);
    this.#sum.clear();
  }
}

const harness = () => KeyedOneInputStreamOperatorTestHarness.forKeyedProcessFunction(new SumUntilTimer(), (r: Reading) => r.sensor);

describe('KeyedOneInputStreamOperatorTestHarness', () => {
  it('fires event-time timers at watermarks, keeps state per key and routes side outputs', async () => {
    const h = harness();
    await h.processElement({ sensor: 'a', celsius: 20 }, 100);
    await h.processElement({ sensor: 'b', celsius: 45 }, 103);
    await h.processElement({ sensor: 'a', celsius: 22 }, 105);
    expect(h.getKeyedState('a', sumDescriptor)).toBe(42);
    expect(h.getKeyedState('c', sumDescriptor)).toBeUndefined();
    await h.processWatermark(109);
    expect(h.extractOutputValues()).toEqual([]);
    await h.processWatermark(113);
    expect(h.getRecordOutput()).toEqual([
      { value: 'a@110: 42', timestamp: 110 },
      { value: 'b@113: 45', timestamp: 113 },
    ]);
    expect(h.getSideOutput(tooHot).map((r) => r.value)).toEqual(['b']);
    expect(h.getWatermarks()).toEqual([109, 113]);
    expect(h.numKeyedStateEntries()).toEqual({});
    await h.close();
  });

  it('restores keyed state and pending timers from a snapshot, unaffected by later changes', async () => {
    const before = harness();
    await before.processElement({ sensor: 'a', celsius: 5 }, 100);
    const snapshot = await before.snapshot();
    await before.processElement({ sensor: 'a', celsius: 1000 }, 101);

    const after = KeyedOneInputStreamOperatorTestHarness.restore(before, snapshot);
    await after.open();
    expect(after.getKeyedState('a', sumDescriptor)).toBe(5);
    await after.processElement({ sensor: 'a', celsius: 7 }, 102);
    await after.processWatermark(110);
    expect(after.extractOutputValues()).toEqual(['a@110: 12']);
  });
});
