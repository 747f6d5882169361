import {
  Boundedness,
  InputStatus,
  ListStateDescriptor,
  Types,
  type CheckpointedFunction,
  type CheckpointListener,
  type FunctionInitializationContext,
  type ListState,
  type MapFunction,
  type StreamExecutionEnvironment,
  type Source,
} from '@weir/api';
import { describe, expect, it } from 'vitest';
import { checkpoint, notifyAborted, notifyComplete, restoreFrom } from '../testing/checkpoints.ts';
import { CollectingSink, runJob, waitUntil } from '../testing/harness.ts';
import { MemoryStorage } from '@weir/storage/testing';
import type { TaskCheckpointing } from './types.ts';
import { CHECKPOINTING_DEFAULTS } from '../testing/checkpointing-defaults.ts';

const checkpointing: TaskCheckpointing = { mode: 'EXACTLY_ONCE', backend: 'memory', storage: undefined, maxInlineBytes: 1 << 20, asyncSnapshots: true, ...CHECKPOINTING_DEFAULTS };

/** Emits 0..count-1 then idles; tells `events` about notifications. */
function numbers(count: number, events: string[]): Source<number> {
  return {
    boundedness: Boundedness.CONTINUOUS_UNBOUNDED,
    createReader(ctx) {
      let next = 0;
      return {
        pollNext: (output) => {
          if (next >= count) return InputStatus.NOTHING_AVAILABLE;
          output.collect(next++);
          return InputStatus.MORE_AVAILABLE;
        },
        isAvailable: () => new Promise<void>(() => {}),
        notifyCheckpointComplete: (id: number) => void events.push(`reader ${ctx.subtaskIndex} complete ${id}`),
        notifyCheckpointAborted: (id: number) => void events.push(`reader ${ctx.subtaskIndex} aborted ${id}`),
      };
    },
  };
}

class Listening implements MapFunction<number, number>, CheckpointListener, CheckpointedFunction {
  #split!: ListState<number>;
  #union!: ListState<string>;

  constructor(private readonly events: string[]) {}

  initializeState(context: FunctionInitializationContext): void {
    const store = context.getOperatorStateStore();
    this.#split = store.getListState(new ListStateDescriptor<number>('split', Types.NUMBER));
    this.#union = store.getUnionListState(new ListStateDescriptor<string>('union', Types.STRING));
    this.events.push(`initialize restored=${context.isRestored()} split=[${[...this.#split.get()].join(',')}]`);
  }

  snapshotState(context: { checkpointId: number }): void {
    this.#split.add(context.checkpointId);
    this.#union.add(`c${context.checkpointId}`);
  }

  map(value: number): number {
    return value;
  }

  notifyCheckpointComplete(id: number): void {
    this.events.push(`map complete ${id}`);
  }

  notifyCheckpointAborted(id: number): void {
    this.events.push(`map aborted ${id}`);
  }
}

describe('checkpoint notifications and operator state', () => {
  it('tells listening functions and readers, in order, and keeps split and union lists with their mode', async () => {
    const events: string[] = [];
    const sink = new CollectingSink<number>();
    const main = (env: StreamExecutionEnvironment): void => {
      env.fromSource(numbers(10, events), 'numbers').map(new Listening(events)).name('Listening').sinkTo(sink);
    };
    const job = await runJob(main, { checkpointing });
    await waitUntil(() => sink.records.length === 10);
    expect(await checkpoint(job, 1)).toBe('acked');
    notifyComplete(job, 1);
    notifyAborted(job, 2);
    await waitUntil(() => events.length === 5);
    expect(events).toEqual(['initialize restored=false split=[]', 'reader 0 complete 1', 'map complete 1', 'reader 0 aborted 2', 'map aborted 2']);
    const listeningId = job.jobGraph.vertices[0]!.operators[1]!.operatorId;
    const ack = job.acks.get(1)!.get(job.deployed[0]!.task)!;
    expect(ack.state.operators[listeningId]!.operator![0]!.states).toEqual({ split: { mode: 'split' }, union: { mode: 'union' } });
    expect(ack.metrics).toEqual({ syncMs: expect.any(Number), asyncMs: expect.any(Number), alignmentMs: 0, stateBytes: expect.any(Number), checkpointedBytes: expect.any(Number), unaligned: false, persistedBytes: 0 });
    expect(ack.metrics.stateBytes).toBeGreaterThan(0);
    await Promise.all(job.deployed.map((d) => d.task.cancel()));

    events.length = 0;
    const restored = await runJob(main, { checkpointing, restore: restoreFrom(job, 1, new MemoryStorage()), attempt: 1 });
    await waitUntil(() => events.length === 1);
    expect(events).toEqual(['initialize restored=true split=[1]']);
    await Promise.all(restored.deployed.map((d) => d.task.cancel()));
  });

  it("refuses operator list names starting with '$' and a list asked for in both modes", async () => {
    const failures: unknown[] = [];
    for (const ask of [
      (ctx: FunctionInitializationContext) => ctx.getOperatorStateStore().getListState(new ListStateDescriptor('$source-reader', Types.NUMBER)),
      (ctx: FunctionInitializationContext) => {
        ctx.getOperatorStateStore().getListState(new ListStateDescriptor('both', Types.NUMBER));
        ctx.getOperatorStateStore().getUnionListState(new ListStateDescriptor('both', Types.NUMBER));
      },
    ]) {
      const fn = { initializeState: ask, snapshotState() {}, map: (v: number) => v };
      const job = await runJob((env) => void env.fromSource(numbers(1, []), 'numbers').map(fn).name('Bad').sinkTo(new CollectingSink()), { checkpointing });
      await waitUntil(() => job.deployed[0]!.task.state === 'FAILED');
      failures.push(job.changes.get(job.deployed[0]!.task)!.at(-1)!.failure);
    }
    expect(failures).toEqual([
      {
        code: 'STATE_NAME_RESERVED',
        message: expect.stringContaining("Bad (1/1) failed: Bad (1/1) asked for operator list state '$source-reader'; names starting with '$' belong to the runtime"),
      },
      {
        code: 'STATE_DESCRIPTOR_MISMATCH',
        message: expect.stringContaining("Bad (1/1) asked for union list state 'both', but 'both' is split list state"),
      },
    ]);
  });
});
