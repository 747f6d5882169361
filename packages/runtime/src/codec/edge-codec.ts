import type { JobEdge, StreamGraph } from '@weir/api';
import { RecordCodec } from './record-codec.ts';

/**
 * The codec of the records on a job edge (or a chained edge, to copy its records): by the
 * declared type of what the emitting operator emits there (its output or a side output).
 */
export function edgeCodec(graph: StreamGraph, edge: Pick<JobEdge, 'sourceNodeId' | 'targetNodeId' | 'targetVertexId' | 'outputTag'>): RecordCodec {
  const source = graph.nodes[edge.sourceNodeId];
  const target = graph.nodes[edge.targetNodeId];
  const type = edge.outputTag === undefined ? source?.outputType : source?.sideOutputTypes.get(edge.outputTag);
  return new RecordCodec(type, `'${target?.name ?? edge.targetVertexId}'`);
}
