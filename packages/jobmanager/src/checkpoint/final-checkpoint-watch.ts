import type { JobGraph } from '@weir/api';
import { TaskState } from '@weir/common';
import type { Execution } from '../job/execution.ts';

/**
 * When a bounded job's final checkpoint is due (Flink's "checkpoints after tasks finished",
 * FLIP-147). A task whose input ended waits for a checkpoint whose snapshot it takes after
 * that, and says so with the last checkpoint it took before. Once every task of the attempt
 * waits so or finished, one checkpoint lets them all finish, and the coordinator triggers it
 * at once; Flink waits for the next interval. A checkpoint at each source's end would let
 * that source finish sooner, but the job would still wait for the one after the last end.
 *
 * A task takes its snapshots in the order of their IDs (triggers and barriers come in order;
 * a drained savepoint, whose snapshot waits for the end, has no checkpoint triggered behind it
 * while it is in progress), so checkpoint n is final for a task that reported a lower last
 * one; once such a checkpoint completed, the task is done and finishes as soon as its
 * producers did. A done task that can finish before the next checkpoint (no producer of it
 * still waits) is waited for: a task that finishes before it acknowledges aborts the
 * checkpoint.
 *
 * At most one early trigger per attempt: if that checkpoint fails, the next one comes at the
 * interval, so a checkpoint that keeps failing never becomes a loop.
 */
export class FinalCheckpointWatch {
  #attempt = -1;
  /** By subtask of the attempt: the last checkpoint it took before its input ended. */
  readonly #ended = new Map<string, number>();
  /** The highest checkpoint of the attempt that completed (its tasks were told). */
  #lastCompleted = 0;
  #expedited = false;

  constructor(private readonly jobGraph: JobGraph) {}

  inputEnded(attempt: number, vertexId: string, index: number, lastCheckpointBeforeEnd: number): void {
    if (this.#at(attempt)) this.#ended.set(keyOf(vertexId, index), lastCheckpointBeforeEnd);
  }

  completed(attempt: number, checkpointId: number): void {
    if (this.#at(attempt)) this.#lastCompleted = Math.max(this.#lastCompleted, checkpointId);
  }

  /** Whether to trigger the final checkpoint of `execution` now (the caller has none in flight); true at most once per attempt. */
  takeDue(execution: Execution): boolean {
    if (this.#expedited || !this.#at(execution.attempt) || !this.#due(execution)) return false;
    this.#expedited = true;
    return true;
  }

  #due(execution: Execution): boolean {
    /** Vertices with a task that cannot finish before the next checkpoint completes. */
    const blocked = new Set<string>();
    let waiting = false;
    // Vertices are topologically sorted, and a consumer subtask reads from every producer subtask.
    for (const vertex of this.jobGraph.vertices) {
      const fedByBlocked = vertex.inputs.some((edge) => blocked.has(edge.sourceVertexId));
      for (let index = 0; index < vertex.parallelism; index++) {
        const state = execution.get(vertex.id, index)?.state;
        if (state === TaskState.FINISHED) continue;
        const lastBeforeEnd = this.#ended.get(keyOf(vertex.id, index));
        // Not running, or its input still flows.
        if (state !== TaskState.RUNNING || lastBeforeEnd === undefined) return false;
        if (lastBeforeEnd >= this.#lastCompleted) waiting = true;
        // Done, and it is about to finish: its FINISHED comes first.
        else if (!fedByBlocked) return false;
        blocked.add(vertex.id);
      }
    }
    return waiting;
  }

  /** Whether `attempt` is the current one; a newer one starts afresh. */
  #at(attempt: number): boolean {
    if (attempt < this.#attempt) return false;
    if (attempt > this.#attempt) {
      this.#attempt = attempt;
      this.#ended.clear();
      this.#lastCompleted = 0;
      this.#expedited = false;
    }
    return true;
  }
}

function keyOf(vertexId: string, index: number): string {
  return `${vertexId}#${index}`;
}
