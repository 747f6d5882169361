import type { DeployTask__Output, TaskKey__Output } from '@weir/rpc';
import type { TaskDeploymentDescriptor } from '@weir/runtime';

/** A map key for a task. */
export function taskId(key: TaskKey__Output): string {
  return `${key.jobId}/${key.attempt}/${key.vertexId}/${key.subtaskIndex}`;
}

/** A map key for a job attempt. */
export function attemptId(key: TaskKey__Output): string {
  return `${key.jobId}/${key.attempt}`;
}

export function describeTask(key: TaskKey__Output, parallelism: number): string {
  return `${key.vertexId} (${key.subtaskIndex + 1}/${parallelism}) of job ${key.jobId} attempt ${key.attempt}`;
}

export function toDeploymentDescriptor(message: DeployTask__Output, key: TaskKey__Output): TaskDeploymentDescriptor {
  return {
    jobId: key.jobId,
    attempt: key.attempt,
    jobName: message.jobName,
    vertexId: key.vertexId,
    subtaskIndex: key.subtaskIndex,
    parallelism: message.parallelism,
    inputs: message.inputs.map((input) => ({
      sourceVertexId: input.sourceVertexId,
      producers: input.producers.map((producer) => ({
        subtaskIndex: producer.subtaskIndex,
        taskManagerId: producer.taskManagerId,
        dataAddress: producer.dataAddress,
      })),
    })),
  };
}
