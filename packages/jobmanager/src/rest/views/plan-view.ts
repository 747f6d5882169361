import type { JobGraph, JobVertex } from '@weir/api';

/** Flink's ship strategies for Weir's partitioners. */
const SHIP_STRATEGY = { forward: 'FORWARD', rebalance: 'REBALANCE', hash: 'HASH', broadcast: 'BROADCAST' } as const;

/** GET /jobs/:id/plan: the job graph as Flink's JSON plan, with each vertex's chained operators. */
export function planView(jobId: string, graph: JobGraph): { plan: object } {
  return {
    plan: {
      jid: jobId,
      name: graph.jobName,
      type: 'STREAMING',
      nodes: graph.vertices.map((vertex) => planNode(vertex)),
    },
  };
}

function planNode(vertex: JobVertex): object {
  return {
    id: vertex.id,
    parallelism: vertex.parallelism,
    maxParallelism: vertex.maxParallelism,
    operator: '',
    operator_strategy: '',
    description: vertex.name,
    inputs: vertex.inputs.map((edge, num) => ({
      num,
      id: edge.sourceVertexId,
      ship_strategy: SHIP_STRATEGY[edge.partitioner],
      exchange: 'pipelined_bounded',
    })),
    optimizer_properties: {},
    operators: vertex.operators.map((op) => ({ id: op.operatorId, uid: op.uid ?? null, name: op.name, kind: op.kind })),
  };
}
