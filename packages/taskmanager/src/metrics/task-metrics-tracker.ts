import type { Clock } from '@weir/common';
import type { OperatorMetricsSnapshot, SubtaskMetricsReport, TaskMetricsSnapshot } from '@weir/common';
import type { Series, TaskMetricName } from '@weir/metrics';
import type { TaskKey__Output } from '@weir/rpc';
import type { OperatorMetricValue, TaskMetricsSample } from '@weir/runtime';
import { taskId } from '../deploy/task-key.ts';
import { toSnapshot, type TimedSample } from './task-rates.ts';

/** A running task as metrics see it: who it is, and its counters now. */
export interface MeasuredTask {
  readonly key: TaskKey__Output;
  readonly jobName: string;
  readonly vertexName: string;
  /** Undefined while the task is still being deployed; `ended`: the task no longer runs (its operators' rates are 0). */
  sample(ended?: boolean): TaskMetricsSample | undefined;
}

/** A task's metrics at the last tick, for the JobManager. */
export type TaskReport = SubtaskMetricsReport;

/** Flink's labels of an operator's series, after the task's. */
export interface OperatorSeries {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly values: readonly OperatorMetricValue[];
}

/**
 * The TaskManager's task metrics: every tick samples the running tasks and turns the samples
 * into snapshots with rates over the interval since the previous tick. A task that ended is
 * sampled one last time, so its final counts still reach the JobManager once.
 */
export class TaskMetricsTracker {
  readonly #previous = new Map<string, { task: MeasuredTask; last: TimedSample; snapshot: TaskMetricsSnapshot }>();
  #ended: TaskReport[] = [];

  constructor(
    private readonly tasks: () => Iterable<MeasuredTask>,
    private readonly clock: Clock,
  ) {}

  /** Samples every running task now; returns the reports of the running tasks and of those that ended since the last tick. */
  tick(): TaskReport[] {
    const now = this.clock.now();
    const reports: TaskReport[] = this.#ended;
    this.#ended = [];
    const live = new Set<string>();
    for (const task of this.tasks()) {
      const sample = task.sample();
      if (sample === undefined) continue;
      const id = taskId(task.key);
      live.add(id);
      const current = { sample, atMs: now };
      const snapshot = toSnapshot(this.#previous.get(id)?.last, current);
      this.#previous.set(id, { task, last: current, snapshot });
      reports.push({ task: task.key, metrics: snapshot, operators: operatorSnapshots(sample) });
    }
    for (const id of this.#previous.keys()) if (!live.has(id)) this.#previous.delete(id);
    return reports;
  }

  /**
   * A task ended: its final counts go with the next tick's reports, with rates of 0. It
   * processes nothing any more, and this report is the last: rates over its final interval
   * would stay in the JobManager's view of a finished job for good.
   */
  ended(task: MeasuredTask): void {
    const id = taskId(task.key);
    const sample = task.sample(true);
    this.#previous.delete(id);
    if (sample === undefined) return;
    this.#ended.push({ task: task.key, metrics: toSnapshot(undefined, { sample, atMs: this.clock.now() }), operators: operatorSnapshots(sample) });
  }

  /**
   * The running tasks' series for a Prometheus scrape: counts and queues as they are now,
   * rates as of the last tick.
   */
  *series(taskManagerId: string): Iterable<Series<TaskMetricName>> {
    for (const task of this.tasks()) {
      const sample = task.sample();
      if (sample === undefined) continue;
      const rates = this.#previous.get(taskId(task.key))?.snapshot;
      const live = toSnapshot(undefined, { sample, atMs: this.clock.now() });
      yield {
        labels: taskLabels(task, taskManagerId),
        values: {
          ...live,
          numRecordsInPerSecond: rates?.numRecordsInPerSecond ?? 0,
          numRecordsOutPerSecond: rates?.numRecordsOutPerSecond ?? 0,
          numBytesInPerSecond: rates?.numBytesInPerSecond ?? 0,
          numBytesOutPerSecond: rates?.numBytesOutPerSecond ?? 0,
          busyTimeMsPerSecond: rates?.busyTimeMsPerSecond ?? 0,
          backPressuredTimeMsPerSecond: rates?.backPressuredTimeMsPerSecond ?? 0,
          idleTimeMsPerSecond: rates?.idleTimeMsPerSecond ?? 0,
        },
      };
    }
  }

  /** The running tasks' operators' series for a Prometheus scrape (Flink's operator scope): each operator's metrics as they are now. */
  *operatorSeries(taskManagerId: string): Iterable<OperatorSeries> {
    for (const task of this.tasks()) {
      const sample = task.sample();
      if (sample === undefined) continue;
      const labels = taskLabels(task, taskManagerId);
      for (const operator of sample.operators) {
        yield { labels: { ...labels, operator_id: operator.operatorId, operator_name: operator.operatorName }, values: operator.values };
      }
    }
  }
}

/** Flink's Prometheus labels of a task. */
function taskLabels(task: MeasuredTask, taskManagerId: string): Record<string, string | number> {
  return {
    job_id: task.key.jobId,
    job_name: task.jobName,
    task_id: task.key.vertexId,
    task_name: task.vertexName,
    subtask_index: task.key.subtaskIndex,
    task_attempt_num: task.key.attempt,
    tm_id: taskManagerId,
  };
}

/** The operators' metrics as the JobManager gets them: Flink's names and values. */
function operatorSnapshots(sample: TaskMetricsSample): OperatorMetricsSnapshot[] {
  return sample.operators.map((o) => ({ operatorId: o.operatorId, operatorName: o.operatorName, metrics: o.values.map(({ name, value }) => ({ name, value })) }));
}
