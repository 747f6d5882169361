import type { TaskState } from '@weir/common';

/** Everything a TaskManager knows about one subtask to run, from the JobManager's DeployTask. */
export interface TaskDeploymentDescriptor {
  readonly jobId: string;
  readonly attempt: number;
  readonly jobName: string;
  readonly vertexId: string;
  readonly subtaskIndex: number;
  /** The vertex parallelism the JobManager scheduled; the task checks it against the JobGraph it rebuilt. */
  readonly parallelism: number;
  /** One per input edge of the vertex, in the order of `JobVertex.inputs`. */
  readonly inputs: readonly InputLocation[];
}

export interface InputLocation {
  readonly sourceVertexId: string;
  readonly producers: readonly ProducerLocation[];
}

export interface ProducerLocation {
  readonly subtaskIndex: number;
  readonly taskManagerId: string;
  readonly dataAddress: string;
}

/** A task's report of a state change; `failure` is set with FAILED. */
export interface TaskStateChange {
  readonly state: TaskState;
  readonly failure?: { readonly message: string; readonly code?: string };
}
