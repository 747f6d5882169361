import type { JobGraph, JobVertex, StreamGraph } from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { TaskDeploymentDescriptor } from './deployment.ts';

const REBUILT = 'the graph built here from the job bundle differs from the one the JobManager planned; a job must build the same graph from the same args in every process';

function mismatch(message: string): WeirError {
  return new WeirError(RuntimeErrorCode.DEPLOYMENT_MISMATCH, message);
}

/**
 * The one check of a deployment against the graph this process rebuilt from the job bundle:
 * finds the task's vertex and checks that the deployment fits it (parallelism, subtask,
 * operators, inputs and their producers); anything else is DEPLOYMENT_MISMATCH. The
 * TaskManager calls it before it creates the task, the task when it sets up.
 */
export function resolveVertex(deployment: TaskDeploymentDescriptor, graph: StreamGraph, jobGraph: JobGraph): JobVertex {
  const vertex = jobGraph.vertices.find((v) => v.id === deployment.vertexId);
  if (vertex === undefined) {
    throw mismatch(
      `vertex ${deployment.vertexId} is not in job '${jobGraph.jobName}', whose vertices are ` +
        `${jobGraph.vertices.map((v) => `${v.id} (${v.name})`).join(', ')}; ${REBUILT}`,
    );
  }
  if (deployment.parallelism !== vertex.parallelism) {
    throw mismatch(`vertex '${vertex.name}' was deployed with parallelism ${deployment.parallelism} but has ${vertex.parallelism} here; ${REBUILT}`);
  }
  if (!Number.isInteger(deployment.subtaskIndex) || deployment.subtaskIndex < 0 || deployment.subtaskIndex >= vertex.parallelism) {
    throw mismatch(`subtask ${deployment.subtaskIndex} of vertex '${vertex.name}' is out of range: its parallelism is ${vertex.parallelism}`);
  }
  for (const op of vertex.operators) {
    if (graph.nodes[op.nodeId]?.operatorId !== op.operatorId) {
      throw mismatch(`operator '${op.name}' (node ${op.nodeId}) of vertex '${vertex.name}' is not in the stream graph; ${REBUILT}`);
    }
  }
  if (deployment.inputs.length !== vertex.inputs.length) {
    throw mismatch(`vertex '${vertex.name}' has ${vertex.inputs.length} input edges but was deployed with ${deployment.inputs.length} inputs`);
  }
  deployment.inputs.forEach((input, i) => {
    const edge = vertex.inputs[i]!;
    if (input.sourceVertexId !== edge.sourceVertexId) {
      throw mismatch(`input ${i} of vertex '${vertex.name}' reads from ${edge.sourceVertexId}, but the deployment names ${input.sourceVertexId}`);
    }
    const producer = jobGraph.vertices.find((v) => v.id === edge.sourceVertexId)!;
    const indexes = input.producers.map((p) => p.subtaskIndex).sort((a, b) => a - b);
    if (indexes.length !== producer.parallelism || indexes.some((index, k) => index !== k)) {
      throw mismatch(
        `input ${i} of vertex '${vertex.name}' must list producer subtasks 0..${producer.parallelism - 1} of '${producer.name}', ` +
          `got [${indexes.join(', ')}]`,
      );
    }
  });
  return vertex;
}
