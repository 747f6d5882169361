import type { OperatorMetricsSnapshot, ProcessMetricsSnapshot, TaskManagerMetricsReport, TaskMetricsSnapshot } from '@weir/common';

/** One subtask's latest metrics, as its TaskManager last sent them. */
export interface SubtaskMetrics {
  readonly attempt: number;
  readonly taskManagerId: string;
  readonly receivedAtMs: number;
  readonly metrics: TaskMetricsSnapshot;
  /** Its chain's operators, head first, with the metrics they and their functions registered. */
  readonly operators: readonly OperatorMetricsSnapshot[];
}

/** A TaskManager's latest process metrics. */
export interface TaskManagerMetrics {
  readonly receivedAtMs: number;
  readonly process: ProcessMetricsSnapshot;
}

/**
 * What the TaskManagers last reported (Flink's MetricStore): every subtask's metrics and its
 * operators' by job, and every TaskManager's process metrics; what the REST API and the
 * dashboard show. A subtask's last report stays after it ended, so a finished job still shows
 * its final counts.
 */
export class MetricStore {
  readonly #jobs = new Map<string, Map<string, SubtaskMetrics>>();
  readonly #taskManagers = new Map<string, TaskManagerMetrics>();

  /** A TaskManager's report arrived. */
  ingest(taskManagerId: string, report: TaskManagerMetricsReport, receivedAtMs: number): void {
    this.#taskManagers.set(taskManagerId, { receivedAtMs, process: report.process });
    for (const { task, metrics, operators } of report.tasks) {
      this.update(task.jobId, task.vertexId, task.subtaskIndex, { attempt: task.attempt, taskManagerId, receivedAtMs, metrics, operators });
    }
  }

  update(jobId: string, vertexId: string, subtaskIndex: number, report: SubtaskMetrics): void {
    let job = this.#jobs.get(jobId);
    if (job === undefined) {
      job = new Map();
      this.#jobs.set(jobId, job);
    }
    const key = keyOf(vertexId, subtaskIndex);
    const previous = job.get(key);
    // Reports of an older attempt may arrive late; they never replace a newer one.
    if (previous !== undefined && previous.attempt > report.attempt) return;
    job.set(key, report);
  }

  /** The subtask's metrics in `attempt`; undefined when none arrived for that attempt. */
  subtask(jobId: string, vertexId: string, subtaskIndex: number, attempt: number): SubtaskMetrics | undefined {
    const report = this.#jobs.get(jobId)?.get(keyOf(vertexId, subtaskIndex));
    return report?.attempt === attempt ? report : undefined;
  }

  /** The TaskManager's latest process metrics; undefined before its first report. */
  taskManager(taskManagerId: string): TaskManagerMetrics | undefined {
    return this.#taskManagers.get(taskManagerId);
  }

  /** A TaskManager is gone: its process metrics go (its subtasks' last reports stay with their jobs). */
  taskManagerLost(taskManagerId: string): void {
    this.#taskManagers.delete(taskManagerId);
  }
}

function keyOf(vertexId: string, subtaskIndex: number): string {
  return `${vertexId}#${subtaskIndex}`;
}
