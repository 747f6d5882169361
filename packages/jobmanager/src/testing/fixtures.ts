import type { WeirError } from '@weir/common';
import type { JobGraph, JobVertex, PartitionerKind } from '@weir/api';
import type { JobManagerMessage, TaskKey } from '@weir/rpc';
import type { JobSpec } from '../job/job-spec.ts';
import type { JobSettings } from '../settings/job-settings.ts';
import type { TaskManagerGateway } from '../job/task-manager-gateway.ts';
import type { TaskManagerConnection } from '../registry/task-manager-connection.ts';

/** Hand-built graphs and fake TaskManagers for the unit tests. */

export function vertex(
  id: string,
  parallelism: number,
  inputs: readonly (readonly [sourceVertexId: string, partitioner: PartitionerKind])[] = [],
): JobVertex {
  return {
    id,
    name: `V-${id}`,
    parallelism,
    maxParallelism: 128,
    operators: [{ nodeId: 0, operatorId: `op-${id}`, uid: id === 'src' ? 'source-uid' : undefined, name: `V-${id}`, kind: 'map' }],
    inputs: inputs.map(([sourceVertexId, partitioner], i) => ({
      sourceVertexId,
      targetVertexId: id,
      sourceNodeId: 0,
      targetNodeId: 0,
      inputIndex: i as 0 | 1,
      partitioner,
    })),
    outputs: [],
  };
}

export function jobGraph(...vertices: JobVertex[]): JobGraph {
  return { jobName: 'test job', vertices, bufferTimeoutMs: 100, autoWatermarkIntervalMs: 200 };
}

/** No checkpoints and no restarts: what a job gets when neither it nor the cluster asks for more. */
export const PLAIN_JOB_SETTINGS: JobSettings = { checkpointing: undefined, stateBackend: 'heap', restartStrategy: { kind: 'none' } };

export function jobSpec(graph: JobGraph, jobId = 'job-1', settings: JobSettings = PLAIN_JOB_SETTINGS): JobSpec {
  return {
    settings,
    configuration: {},
    jobId,
    jobGraph: graph,
    bundleHash: 'hash-1',
    entryName: 'job.js',
    args: ['--in', 'x'],
    defaults: { parallelism: 2, maxParallelism: -1, bufferTimeoutMs: 100, objectReuse: false },
  };
}

export interface SentMessage {
  readonly taskManagerId: string;
  readonly message: JobManagerMessage;
}

/** Collects what jobs send to TaskManagers; only the connected IDs accept messages. */
export class FakeGateway implements TaskManagerGateway {
  readonly sent: SentMessage[] = [];
  readonly connected = new Set<string>();

  send(taskManagerId: string, message: JobManagerMessage): boolean {
    if (!this.connected.has(taskManagerId)) return false;
    this.sent.push({ taskManagerId, message });
    return true;
  }

  /** `vertex#index@taskManager` of every deploy so far, in order. */
  deployed(): string[] {
    return this.sent.filter((m) => m.message.deploy).map((m) => `${describe(m.message.deploy!.task!)}@${m.taskManagerId}`);
  }

  canceled(): string[] {
    return this.sent.filter((m) => m.message.cancel).map((m) => `${describe(m.message.cancel!.task!)}@${m.taskManagerId}`);
  }

  clear(): void {
    this.sent.length = 0;
  }
}

function describe(task: TaskKey): string {
  return `${task.vertexId}#${task.subtaskIndex}`;
}

/** A TaskManager's control stream as the registry sees it. */
export class FakeConnection implements TaskManagerConnection {
  readonly sent: JobManagerMessage[] = [];
  closedWith: WeirError | 'no error' | undefined;

  send(message: JobManagerMessage): void {
    this.sent.push(message);
  }

  close(error?: WeirError): void {
    this.closedWith ??= error ?? 'no error';
  }
}
