import { describe, expect, it } from 'vitest';
import {
  ListStateDescriptor,
  ProcessFunction,
  Types,
  type CheckpointedFunction,
  type Collector,
  type FunctionInitializationContext,
  type ListState,
  type ProcessContext,
} from '@weir/api';
import { OneInputStreamOperatorTestHarness } from './one-input-harness.ts';

const buffered = new ListStateDescriptor('buffered', Types.STRING);

/** Emits records in batches of three; the partial batch is operator state (Flink's BufferingSink example, as a function). */
class Batcher extends ProcessFunction<string, string> implements CheckpointedFunction {
  #batch: string[] = [];
  #state!: ListState<string>;
  restored = false;

  initializeState(context: FunctionInitializationContext): void {
    this.#state = context.getOperatorStateStore().getListState(buffered);
    this.restored = context.isRestored();
    this.#batch = [...this.#state.get()];
  }

  snapshotState(): void {
    this.#state.update(this.#batch);
  }

  override processElement(value: string, _ctx: ProcessContext, out: Collector<string>): void {
    this.#batch.push(value);
    if (this.#batch.length < 3) return;
    out.collect(this.#batch.join('+'));
    this.#batch = [];
  }
}

describe('OneInputStreamOperatorTestHarness', () => {
  it('runs a ProcessFunction and keeps its operator state across snapshot and restore', async () => {
    const first = new Batcher();
    const h = OneInputStreamOperatorTestHarness.forProcessFunction(first);
    for (const v of ['a', 'b', 'c', 'd']) await h.processElement(v, 10);
    expect(h.getRecordOutput()).toEqual([{ value: 'a+b+c', timestamp: 10 }]);
    const snapshot = await h.snapshot();
    expect(first.restored).toBe(false);

    const second = new Batcher();
    const after = OneInputStreamOperatorTestHarness.restore(OneInputStreamOperatorTestHarness.forProcessFunction(second), snapshot);
    await after.processElement('e');
    await after.processElement('f');
    expect(second.restored).toBe(true);
    expect(after.extractOutputValues()).toEqual(['d+e+f']);
  });

  it('runs a map function and passes watermarks on', async () => {
    const h = OneInputStreamOperatorTestHarness.forMapFunction((n: number) => n * 2);
    await h.processElement(21, 5);
    await h.processWatermark(7);
    expect(h.getRecordOutput()).toEqual([{ value: 42, timestamp: 5 }]);
    expect(h.getWatermarks()).toEqual([7]);
  });

  it('has no keyed state to read', async () => {
    const h = OneInputStreamOperatorTestHarness.forFlatMapFunction((s: string, out: Collector<string>) => out.collect(s));
    await h.processElement('x');
    expect(h.extractOutputValues()).toEqual(['x']);
    expect(() => (h as unknown as { keyedState(k: unknown, d: unknown): unknown }).keyedState('x', buffered)).toThrow(/non-keyed/);
  });
});
