import type { JobGraph } from '@weir/api';
import { TaskState, isTerminalTaskState } from '@weir/common';
import type { Execution, SubtaskExecution } from '../job/execution.ts';
import type { TaskManagerGateway } from '../job/task-manager-gateway.ts';

/** What the coordinator tells tasks: triggers to the sources, outcomes to everyone. */
export class CheckpointMessenger {
  readonly #sourceVertices: ReadonlySet<string>;

  constructor(
    private readonly jobId: string,
    jobGraph: JobGraph,
    private readonly gateway: TaskManagerGateway,
  ) {
    this.#sourceVertices = new Set(jobGraph.vertices.filter((v) => v.inputs.length === 0).map((v) => v.id));
  }

  /** Sends TriggerCheckpoint to every source subtask; returns the subtasks whose TaskManager is not connected. */
  trigger(execution: Execution, checkpointId: number, timestampMs: number): SubtaskExecution[] {
    const unreachable: SubtaskExecution[] = [];
    for (const subtask of execution.all()) {
      if (!this.#sourceVertices.has(subtask.vertexId)) continue;
      const sent = this.gateway.send(subtask.taskManagerId, {
        triggerCheckpoint: { task: this.#taskKey(execution, subtask), checkpointId, timestampMs },
      });
      if (!sent) unreachable.push(subtask);
    }
    return unreachable;
  }

  /** Sends NotifyCheckpoint to every subtask still running or finishing. */
  notify(execution: Execution, checkpointId: number, completed: boolean): void {
    for (const subtask of execution.all()) {
      if (isTerminalTaskState(subtask.state) || subtask.state === TaskState.CANCELING) continue;
      this.gateway.send(subtask.taskManagerId, {
        notifyCheckpoint: { task: this.#taskKey(execution, subtask), checkpointId, completed },
      });
    }
  }

  #taskKey(execution: Execution, subtask: SubtaskExecution) {
    return { jobId: this.jobId, attempt: execution.attempt, vertexId: subtask.vertexId, subtaskIndex: subtask.index };
  }
}
