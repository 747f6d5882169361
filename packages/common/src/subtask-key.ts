/**
 * One subtask of one run (attempt) of a job: whom a control message is about (the proto's
 * TaskKey) — a checkpoint message, a split source's event or a task's metrics.
 */
export interface SubtaskKey {
  readonly jobId: string;
  /** Rises by one with every restart, so messages about an older run are recognisable and ignored. */
  readonly attempt: number;
  readonly vertexId: string;
  readonly subtaskIndex: number;
}
