import { createHash } from 'node:crypto';
import type { JobGraph, StreamGraph } from '@weir/api';
import type { DeployTask__Output, TaskCheckpointing__Output, TaskRestore__Output } from '@weir/rpc';
import type { LoadedJob } from '../deploy/types.ts';

/** The bundle deploys name unless a test says otherwise; FakeJobManager serves it. */
export const DEFAULT_BUNDLE = Buffer.from('exports.default = function job() {};', 'utf8');
export const DEFAULT_BUNDLE_HASH = createHash('sha256').update(DEFAULT_BUNDLE).digest('hex');

/**
 * The job `deployMessage` deploys into, built by hand: what a JobLoader double returns. Its
 * vertex `vertexId` (parallelism `parallelism`) reads from `vertex-0`, a source of parallelism 2.
 */
export function oneVertexJob(vertexId = 'vertex-a', parallelism = 2): LoadedJob {
  const graph: StreamGraph = {
    jobName: 'test job',
    nodes: [],
    config: { parallelism, maxParallelism: 128, bufferTimeoutMs: 100, autoWatermarkIntervalMs: 200, objectReuse: false, checkpointing: undefined, stateBackend: undefined, restartStrategy: undefined },
  };
  const jobGraph: JobGraph = {
    jobName: 'test job',
    vertices: [
      { id: 'vertex-0', name: 'Source', parallelism: 2, maxParallelism: 128, operators: [], inputs: [], outputs: [] },
      {
        id: vertexId,
        name: 'Map -> Sink',
        parallelism,
        maxParallelism: 128,
        operators: [],
        inputs: [{ sourceVertexId: 'vertex-0', targetVertexId: vertexId, sourceNodeId: 0, targetNodeId: 1, inputIndex: 0, partitioner: 'rebalance' }],
        outputs: [],
      },
    ],
    bufferTimeoutMs: 100,
    autoWatermarkIntervalMs: 200,
  };
  return { graph, jobGraph };
}

export interface DeployOverrides {
  jobId?: string;
  attempt?: number;
  vertexId?: string;
  subtask?: number;
  bundleHash?: string;
  parallelism?: number;
  checkpointing?: TaskCheckpointing__Output;
  restore?: TaskRestore__Output;
  keyedStateBackend?: string;
}

export function deployMessage(overrides: DeployOverrides = {}): DeployTask__Output {
  return {
    task: {
      jobId: overrides.jobId ?? 'job-1',
      attempt: overrides.attempt ?? 0,
      vertexId: overrides.vertexId ?? 'vertex-a',
      subtaskIndex: overrides.subtask ?? 0,
    },
    jobName: 'test job',
    bundleHash: overrides.bundleHash ?? DEFAULT_BUNDLE_HASH,
    entryName: 'job.js',
    args: ['a'],
    defaults: { parallelism: 2, maxParallelism: -1, bufferTimeoutMs: 100, objectReuse: false },
    parallelism: overrides.parallelism ?? 2,
    inputs: [
      {
        sourceVertexId: 'vertex-0',
        producers: [
          { subtaskIndex: 0, taskManagerId: 'tm-a', dataAddress: 'a:1' },
          { subtaskIndex: 1, taskManagerId: 'tm-b', dataAddress: 'b:2' },
        ],
      },
    ],
    restore: overrides.restore ?? null,
    checkpointing: overrides.checkpointing ?? null,
    keyedStateBackend: overrides.keyedStateBackend ?? '',
  };
}
