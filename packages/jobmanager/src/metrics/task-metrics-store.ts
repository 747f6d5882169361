import type { TaskMetricsSnapshot } from '@weir/metrics';

/** One subtask's latest metrics, as its TaskManager last sent them. */
export interface SubtaskMetrics {
  readonly attempt: number;
  readonly taskManagerId: string;
  readonly receivedAtMs: number;
  readonly metrics: TaskMetricsSnapshot;
}

/**
 * The latest metrics of every subtask, by job, as the TaskManagers send them: what the REST
 * API and the dashboard show. A subtask's last report stays after it ended, so a finished
 * job still shows its final counts.
 */
export class TaskMetricsStore {
  readonly #jobs = new Map<string, Map<string, SubtaskMetrics>>();

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
}

function keyOf(vertexId: string, subtaskIndex: number): string {
  return `${vertexId}#${subtaskIndex}`;
}
