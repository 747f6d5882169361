import { describe, expect, it } from 'vitest';
import { TaskState } from '@weir/common';
import type { JobGraph } from '@weir/api';
import { Execution } from '../job/execution.ts';
import { jobGraph, vertex } from '../testing/fixtures.ts';
import { planCheckpoint } from './checkpoint-plan.ts';

/** fast (p=1) and slow (p=1) -> sums (p=2, hash) -> sink (p=2, forward), as TWO_RATES. */
const twoSources = jobGraph(vertex('fast', 1), vertex('slow', 1), vertex('sums', 2, [['fast', 'hash'], ['slow', 'hash']]), vertex('sink', 2, [['sums', 'forward']]));

function execution(graph: JobGraph, states: Record<string, TaskState> = {}): Execution {
  return new Execution(
    0,
    graph.vertices.flatMap((v) =>
      Array.from({ length: v.parallelism }, (_, index) => ({
        vertexId: v.id,
        index,
        taskManagerId: 'tm-1',
        state: states[`${v.id}#${index}`] ?? TaskState.RUNNING,
        failureCause: '',
        timestamps: {},
      })),
    ),
  );
}

function names(plan: ReturnType<typeof planCheckpoint>) {
  if (plan.kind === 'skip') return plan;
  const list = (subtasks: readonly { vertexId: string; index: number }[]) => subtasks.map((s) => `${s.vertexId}#${s.index}`);
  return { triggered: list(plan.triggered), acknowledging: list(plan.acknowledging), carried: list(plan.carried) };
}

describe('planCheckpoint', () => {
  it('asks every task, triggering the sources, while all run', () => {
    expect(names(planCheckpoint(twoSources, execution(twoSources)))).toEqual({
      triggered: ['fast#0', 'slow#0'],
      acknowledging: ['fast#0', 'slow#0', 'sums#0', 'sums#1', 'sink#0', 'sink#1'],
      carried: [],
    });
  });

  it('triggers only the running source once the other finished, and carries the finished one', () => {
    expect(names(planCheckpoint(twoSources, execution(twoSources, { 'slow#0': TaskState.FINISHED })))).toEqual({
      triggered: ['fast#0'],
      acknowledging: ['fast#0', 'sums#0', 'sums#1', 'sink#0', 'sink#1'],
      carried: ['slow#0'],
    });
  });

  it('triggers a running task all of whose producers finished: no barrier can reach it, and it may still need its final checkpoint', () => {
    const chain = jobGraph(vertex('a', 1), vertex('b', 1), vertex('mapA', 2, [['a', 'rebalance']]), vertex('join', 1, [['mapA', 'hash'], ['b', 'hash']]));
    const plan = planCheckpoint(chain, execution(chain, { 'a#0': TaskState.FINISHED, 'mapA#0': TaskState.FINISHED }));
    expect(names(plan)).toEqual({ triggered: ['b#0', 'mapA#1'], acknowledging: ['b#0', 'mapA#1', 'join#0'], carried: ['a#0', 'mapA#0'] });
  });

  it('skips, naming them, while a task is neither running nor finished', () => {
    const plan = planCheckpoint(twoSources, execution(twoSources, { 'slow#0': TaskState.FINISHED, 'sums#1': TaskState.CANCELED, 'sink#0': TaskState.DEPLOYING }));
    expect(plan).toEqual({ kind: 'skip', reason: 'not every task is running or finished (V-sums (2/2) is CANCELED, V-sink (1/2) is DEPLOYING)' });
  });

  it('triggers the tasks after the sources once every source finished, so they get a checkpoint after their end of data', () => {
    expect(names(planCheckpoint(twoSources, execution(twoSources, { 'fast#0': TaskState.FINISHED, 'slow#0': TaskState.FINISHED })))).toEqual({
      triggered: ['sums#0', 'sums#1'],
      acknowledging: ['sums#0', 'sums#1', 'sink#0', 'sink#1'],
      carried: ['fast#0', 'slow#0'],
    });
  });

  it('skips once every task finished', () => {
    const all = Object.fromEntries(['fast#0', 'slow#0', 'sums#0', 'sums#1', 'sink#0', 'sink#1'].map((t) => [t, TaskState.FINISHED]));
    expect(planCheckpoint(twoSources, execution(twoSources, all))).toEqual({ kind: 'skip', reason: 'every task has finished' });
  });
});
