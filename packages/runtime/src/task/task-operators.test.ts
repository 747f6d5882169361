import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Boundedness, InputStatus, RichMapFunction, Types, ValueStateDescriptor, type Sink, type Source, type ValueState } from '@weir/api';
import { ManualClock } from '@weir/common/testing';
import { describe, expect, it } from 'vitest';
import { CollectingSink, runJob, waitUntil } from '../testing/harness.ts';

describe('operator lifecycle', () => {
  it('opens tail first with a runtime context, finishes sinks at end of input, then closes head first', async () => {
    const events: string[] = [];
    class Tagging extends RichMapFunction<number, string> {
      override open(): void {
        const ctx = this.getRuntimeContext();
        events.push(
          `open ${ctx.getTaskName()} ${ctx.getIndexOfThisSubtask()}/${ctx.getNumberOfParallelSubtasks()} ` +
            `max ${ctx.getMaxNumberOfParallelSubtasks()} attempt ${ctx.getAttemptNumber()} job ${ctx.getJobId()}`,
        );
      }
      override map(value: number): string {
        events.push(`map ${value}`);
        return `#${value}`;
      }
      override close(): void {
        events.push('close map');
      }
    }
    const sink: Sink<string> = {
      createWriter: (ctx) => {
        events.push(`createWriter ${ctx.subtaskIndex}/${ctx.parallelism}`);
        return {
          write: (r) => void events.push(`write ${r}`),
          flush: (end) => void events.push(`flush ${end}`),
          close: () => void events.push('close writer'),
        };
      },
    };
    const job = await runJob((env) => {
      env.fromCollection([1, 2]).map(new Tagging()).sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(events).toEqual([
      'createWriter 0/1',
      `open ${job.jobGraph.vertices[0]!.name} 0/1 max 128 attempt 0 job job-1`,
      'map 1',
      'write #1',
      'map 2',
      'write #2',
      'flush true',
      'close map',
      'close writer',
    ]);
  });

  it("closes a sink's committer after its writer when the task ends", async () => {
    const events: string[] = [];
    const sink: Sink<number> = {
      createWriter: () => ({
        write: () => {},
        flush: () => {},
        prepareCommit: () => ['txn'],
        close: () => void events.push('close writer'),
      }),
      createCommitter: () => ({
        commit: (committables) => void events.push(`commit ${committables.join()}`),
        close: () => void events.push('close committer'),
      }),
    };
    const job = await runJob((env) => {
      env.fromCollection([1, 2]).sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(events).toEqual(['commit txn', 'close writer', 'close committer']);
  });

  it('fails with STATE_NOT_KEYED when an operator off a KeyedStream asks for keyed state', async () => {
    class Stateful extends RichMapFunction<number, number> {
      override open(): void {
        this.getRuntimeContext().getState(new ValueStateDescriptor('total', Types.NUMBER));
      }
      override map(value: number): number {
        return value;
      }
    }
    const job = await runJob((env) => {
      env.fromCollection([1]).map(new Stateful()).name('Totals');
    });
    await job.whenAllTerminal();
    const failure = job.changes.get(job.task(job.jobGraph.vertices[0]!.name))!.at(-1)!.failure!;
    expect(failure.code).toBe('STATE_NOT_KEYED');
    expect(failure.message.split('\n')[0]).toBe(
      "Totals (1/1) failed: getState('total') needs keyed state, but operator 'Totals' does not run on a KeyedStream; call keyBy(...) before it",
    );
  });

  it('allows keyed state in map/filter/flatMap on a KeyedStream', async () => {
    class RunningTotal extends RichMapFunction<number, string> {
      #total!: ValueState<number>;
      override open(): void {
        this.#total = this.getRuntimeContext().getState(new ValueStateDescriptor('total', Types.NUMBER));
      }
      override map(value: number): string {
        const total = (this.#total.value() ?? 0) + value;
        this.#total.update(total);
        return `${value % 2 === 0 ? 'even' : 'odd'}=${total}`;
      }
    }
    const sink = new CollectingSink<string>();
    const job = await runJob((env) => {
      env.fromCollection([1, 2, 3, 4, 5]).keyBy((v) => v % 2).map(new RunningTotal()).sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(sink.values()).toEqual(['odd=1', 'even=2', 'odd=4', 'even=6', 'odd=9']);
  });

  it('keeps keyed state in LevelDB without checkpointing when the job runs the level backend (Flink applies state.backend either way)', async () => {
    const localStateDir = mkdtempSync(join(tmpdir(), 'weir-level-no-checkpoints-'));
    try {
      const seen: string[][] = [];
      class Totals extends RichMapFunction<number, number> {
        #total!: ValueState<number>;
        override open(): void {
          this.#total = this.getRuntimeContext().getState(new ValueStateDescriptor('total', Types.NUMBER));
        }
        override map(value: number): number {
          // The files LevelDB keeps while the task runs; the heap backend leaves the directory empty.
          seen.push(readdirSync(localStateDir, { recursive: true }).map(String).filter((f) => basename(f) === 'CURRENT'));
          const total = (this.#total.value() ?? 0) + value;
          this.#total.update(total);
          return total;
        }
      }
      const sink = new CollectingSink<number>();
      const job = await runJob(
        (env) => {
          env.fromCollection([1, 2, 3, 4]).keyBy((v) => v % 2).map(new Totals()).sinkTo(sink);
        },
        { stateBackend: { kind: 'level', localStateDir } },
      );
      await job.whenAllTerminal();
      expect(sink.values()).toEqual([1, 2, 4, 6]);
      expect(seen.every((files) => files.length === 1)).toBe(true);
      // Without checkpoints nothing outlives the task.
      expect(readdirSync(localStateDir, { recursive: true }).map(String).filter((f) => basename(f) === 'CURRENT')).toEqual([]);
    } finally {
      rmSync(localStateDir, { recursive: true, force: true });
    }
  });
});

describe('buffer timeout and event loop', () => {
  it('flushes a partial batch only when the buffer timeout fires, also while the source is idle', async () => {
    const clock = new ManualClock();
    const source: Source<number> = {
      boundedness: Boundedness.CONTINUOUS_UNBOUNDED,
      createReader: () => {
        let next = 1;
        return {
          pollNext: (out) => (next <= 3 ? (out.collect(next++), InputStatus.MORE_AVAILABLE) : InputStatus.NOTHING_AVAILABLE),
          isAvailable: () => new Promise<void>(() => {}),
        };
      },
    };
    const sink = new CollectingSink<number>();
    const job = await runJob(
      (env) => {
        env.setBufferTimeout(100);
        env.fromSource(source, 'three').rebalance().sinkTo(sink);
      },
      { clock },
    );
    // The first buffer of a subpartition holds one record; the next two wait in the batch.
    await waitUntil(() => sink.records.length === 1);
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    clock.advance(99);
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(sink.values()).toEqual([1]);
    clock.advance(1);
    await waitUntil(() => sink.records.length === 3);
    expect(sink.values()).toEqual([1, 2, 3]);
    for (const tasks of job.tasks.values()) for (const task of tasks) await task.cancel();
  });

  it('gives the event loop turns while a source runs', async () => {
    const total = 100_000;
    let written = 0;
    let writtenWhenImmediateRan = -1;
    const job = await runJob((env) => {
      env.fromCollection(Array.from({ length: total }, (_, i) => i)).sinkTo({
        createWriter: () => ({ write: () => void written++, flush: () => {}, close: () => {} }),
      });
    });
    setImmediate(() => (writtenWhenImmediateRan = written));
    await job.whenAllTerminal();
    expect(written).toBe(total);
    expect(writtenWhenImmediateRan).toBeGreaterThanOrEqual(0);
    expect(writtenWhenImmediateRan).toBeLessThan(total);
  });
});
