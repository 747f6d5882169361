import type { JobGraph } from '@weir/api';

/** A subtask as messages name it, Flink's way: `<vertex name> (<index + 1>/<parallelism>)`. */
export function subtaskName(jobGraph: JobGraph, vertexId: string, index: number): string {
  const vertex = jobGraph.vertices.find((v) => v.id === vertexId);
  return vertex === undefined ? `${vertexId} (${index + 1})` : `${vertex.name} (${index + 1}/${vertex.parallelism})`;
}
