import type { JobGraph, JobVertex, StreamGraph } from '@weir/api';
import { edgeCodec } from '../codec/edge-codec.ts';
import { InputChannel } from '../input/input-channel.ts';
import type { InputGate } from '../input/input-gate.ts';
import type { NetworkEnvironment, SubpartitionId } from '../network/types.ts';
import type { TaskDeploymentDescriptor } from './deployment.ts';

/** Buffers each channel may receive before it returns a credit. */
export const INITIAL_CREDIT = 4;

/**
 * Subscribes one channel per producer subtask of every input edge: through the local
 * registry when the producer runs in this TaskManager, through the remote connector otherwise.
 */
export function connectInputs(
  gate: InputGate,
  graph: StreamGraph,
  vertex: JobVertex,
  jobGraph: JobGraph,
  deployment: TaskDeploymentDescriptor,
  network: NetworkEnvironment,
): void {
  vertex.inputs.forEach((edge, i) => {
    const producerName = jobGraph.vertices.find((v) => v.id === edge.sourceVertexId)?.name ?? edge.sourceVertexId;
    const codec = edgeCodec(graph, edge);
    for (const producer of deployment.inputs[i]!.producers) {
      const source = { vertexId: edge.sourceVertexId, subtask: producer.subtaskIndex, input: i };
      const channel = new InputChannel(edge.inputIndex, `${producerName} subtask ${producer.subtaskIndex}`, gate, source, codec);
      gate.add(channel);
      const id: SubpartitionId = {
        jobId: deployment.jobId,
        attempt: deployment.attempt,
        producerVertexId: edge.sourceVertexId,
        producerSubtask: producer.subtaskIndex,
        consumerVertexId: vertex.id,
        consumerInput: i,
        consumerSubtask: deployment.subtaskIndex,
      };
      channel.connect(
        producer.taskManagerId === network.taskManagerId
          ? network.partitions.subscribe(id, INITIAL_CREDIT, channel)
          : network.remote.connect(producer.dataAddress, id, INITIAL_CREDIT, channel),
      );
    }
  });
}
