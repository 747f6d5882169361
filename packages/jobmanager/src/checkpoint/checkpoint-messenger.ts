import { TaskState, isTerminalTaskState, type CheckpointOptions } from '@weir/common';
import type { CheckpointOptions as WireCheckpointOptions } from '@weir/rpc';
import type { Execution, SubtaskExecution } from '../job/execution.ts';
import type { TaskManagerGateway } from '../job/task-manager-gateway.ts';

/** What the coordinator tells tasks: triggers to the tasks a checkpoint starts at, outcomes to everyone. */
export class CheckpointMessenger {
  constructor(
    private readonly jobId: string,
    private readonly gateway: TaskManagerGateway,
  ) {}

  /** Sends TriggerCheckpoint to `targets`; returns the subtasks whose TaskManager is not connected. */
  trigger(execution: Execution, targets: readonly SubtaskExecution[], checkpointId: number, timestampMs: number, options: CheckpointOptions): SubtaskExecution[] {
    const unreachable: SubtaskExecution[] = [];
    const wireOptions = toWireOptions(options);
    for (const subtask of targets) {
      const sent = this.gateway.send(subtask.taskManagerId, {
        triggerCheckpoint: { task: this.#taskKey(execution, subtask), checkpointId, timestampMs, ...(wireOptions && { options: wireOptions }) },
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

/** The proto's spelling (type CHECKPOINT|SAVEPOINT, terminate ''|SUSPEND|DRAIN); unset for a plain checkpoint, as the proto allows. */
export function toWireOptions(options: CheckpointOptions): WireCheckpointOptions | undefined {
  if (options.type === 'checkpoint' && options.targetLocation === undefined) return undefined;
  return {
    type: options.type.toUpperCase(),
    terminate: options.terminate?.toUpperCase() ?? '',
    targetLocation: options.targetLocation ?? '',
  };
}
