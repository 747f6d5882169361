import { ManualClock } from '@weir/common/testing';
import type { TaskMetricsSample } from '@weir/runtime';
import { describe, expect, it } from 'vitest';
import { ZERO_METRICS } from '../testing/fake-task.ts';
import { TaskMetricsTracker, type MeasuredTask } from './task-metrics-tracker.ts';

function sample(overrides: Partial<TaskMetricsSample>): TaskMetricsSample {
  return { ...ZERO_METRICS, ...overrides };
}

function measured(current: { sample: TaskMetricsSample }): MeasuredTask {
  return { key: { jobId: 'j', attempt: 1, vertexId: 'v', subtaskIndex: 0 }, jobName: 'job', vertexName: 'map', sample: () => current.sample };
}

describe('TaskMetricsTracker', () => {
  it('turns two samples into rates per second and busy, idle and back-pressured time per second', () => {
    const clock = new ManualClock(10_000);
    const current = { sample: sample({}) };
    const tasks: MeasuredTask[] = [measured(current)];
    const tracker = new TaskMetricsTracker(() => tasks, clock);
    expect(tracker.tick()[0]!.metrics.numRecordsOutPerSecond).toBe(0);
    clock.advance(2_000);
    current.sample = sample({ numRecordsOut: 4_000, numBytesOut: 40_000, numRecordsIn: 1_000, idleTimeMs: 400, backPressuredTimeMs: 1_000, runningTimeMs: 2_000, outPoolUsage: 0.5 });
    const [report] = tracker.tick();
    expect(report!.task.vertexId).toBe('v');
    expect(report!.metrics).toMatchObject({
      numRecordsOut: 4_000,
      numRecordsOutPerSecond: 2_000,
      numBytesOutPerSecond: 20_000,
      numRecordsInPerSecond: 500,
      idleTimeMsPerSecond: 200,
      backPressuredTimeMsPerSecond: 500,
      busyTimeMsPerSecond: 300,
      accumulatedBusyTimeMs: 600,
      outPoolUsage: 0.5,
    });
  });

  it('reports a task that ended once more, with its final counts, and exports only running tasks to Prometheus', () => {
    const clock = new ManualClock(0);
    const current = { sample: sample({ numRecordsOut: 10 }) };
    const tasks: MeasuredTask[] = [measured(current)];
    const tracker = new TaskMetricsTracker(() => tasks, clock);
    tracker.tick();
    expect([...tracker.series('tm-1')].map((s) => [s.labels, s.values.numRecordsOut])).toEqual([
      [{ job_id: 'j', job_name: 'job', task_id: 'v', task_name: 'map', subtask_index: 0, task_attempt_num: 1, tm_id: 'tm-1' }, 10],
    ]);
    clock.advance(1_000);
    current.sample = sample({ numRecordsOut: 25 });
    tracker.ended(tasks.pop()!);
    expect([...tracker.series('tm-1')]).toEqual([]);
    // The final report is the last the JobManager gets: its rates are 0, not those of the final interval.
    expect(tracker.tick().map((r) => [r.metrics.numRecordsOut, r.metrics.numRecordsOutPerSecond])).toEqual([[25, 0]]);
    expect(tracker.tick()).toEqual([]);
  });
});
