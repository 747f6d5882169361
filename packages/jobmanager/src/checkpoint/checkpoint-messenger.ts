import { TaskState, isTerminalTaskState, type CheckpointOptions, type SubtaskKey } from '@weir/common';
import { encodeNotification, encodeTrigger } from '@weir/rpc';
import type { Execution, SubtaskExecution } from '../job/execution.ts';
import type { TaskManagerGateway } from '../job/task-manager-gateway.ts';

/** What the coordinator tells tasks: triggers to the tasks a checkpoint starts at, outcomes to everyone. */
export class CheckpointMessenger {
  constructor(
    private readonly jobId: string,
    private readonly gateway: TaskManagerGateway,
  ) {}

  /** Sends TriggerCheckpoint to `targets`; returns the subtasks whose TaskManager is not connected. */
  trigger(execution: Execution, targets: readonly SubtaskExecution[], checkpointId: number, timestamp: number, options: CheckpointOptions): SubtaskExecution[] {
    const unreachable: SubtaskExecution[] = [];
    for (const subtask of targets) {
      const triggerCheckpoint = encodeTrigger({ task: this.#taskKey(execution, subtask), checkpointId, timestamp, options });
      if (!this.gateway.send(subtask.taskManagerId, { triggerCheckpoint })) unreachable.push(subtask);
    }
    return unreachable;
  }

  /** Sends NotifyCheckpoint to every subtask still running or finishing. */
  notify(execution: Execution, checkpointId: number, completed: boolean): void {
    for (const subtask of execution.all()) {
      if (isTerminalTaskState(subtask.state) || subtask.state === TaskState.CANCELING) continue;
      this.gateway.send(subtask.taskManagerId, { notifyCheckpoint: encodeNotification({ task: this.#taskKey(execution, subtask), checkpointId, completed }) });
    }
  }

  #taskKey(execution: Execution, subtask: SubtaskExecution): SubtaskKey {
    return { jobId: this.jobId, attempt: execution.attempt, vertexId: subtask.vertexId, subtaskIndex: subtask.index };
  }
}
