import type { JobEdge, JobGraph, JobOperator, JobVertex } from './job-graph.ts';
import { PartitionerKind, type StreamEdge, type StreamGraph, type StreamNode } from './stream-graph.ts';

/**
 * Chains the StreamGraph into the JobGraph. B is chained onto A when the edge A→B is
 * FORWARD, both have the same parallelism, it is B's only input edge and A's only output
 * edge. Flink also chains a fan-out's branches; this simpler rule keeps every chain a
 * straight line, so a chain has one way in and a record one path through it.
 */
export function buildJobGraph(streamGraph: StreamGraph): JobGraph {
  const { nodes } = streamGraph;
  const outputs = outgoingEdges(nodes);
  const chainedIntoPredecessor = nodes.map((node) => node.inputs.length === 1 && isChainable(node.inputs[0]!, nodes, outputs));

  const vertexOfNode = new Map<number, StreamNode>();
  const chains: StreamNode[][] = [];
  for (const node of nodes) {
    if (chainedIntoPredecessor[node.id]) continue;
    const chain = [node];
    for (let tail = node; outputs[tail.id]!.length === 1 && chainedIntoPredecessor[outputs[tail.id]![0]!.targetId]; ) {
      tail = nodes[outputs[tail.id]![0]!.targetId]!;
      chain.push(tail);
    }
    for (const member of chain) vertexOfNode.set(member.id, node);
    chains.push(chain);
  }

  const toJobEdge = (edge: StreamEdge): JobEdge =>
    Object.freeze({
      sourceVertexId: vertexOfNode.get(edge.sourceId)!.operatorId,
      targetVertexId: vertexOfNode.get(edge.targetId)!.operatorId,
      sourceNodeId: edge.sourceId,
      targetNodeId: edge.targetId,
      inputIndex: edge.inputIndex,
      partitioner: edge.partitioner,
      ...(edge.outputTag === undefined ? {} : { outputTag: edge.outputTag }),
    });

  // Chains are listed by head node id, which is topological: an edge always goes from an
  // earlier node to a later one, so every node a head reads from, and so its chain's head, comes before it.
  const vertices = chains.map((chain): JobVertex => {
    const head = chain[0]!;
    const members = new Set(chain.map((n) => n.id));
    return Object.freeze({
      id: head.operatorId,
      name: chain.map((n) => n.name).join(' -> '),
      parallelism: head.parallelism,
      // Keyed operators always head a chain (a HASH edge never chains), so the vertex's max
      // parallelism is the one the HASH edges into it partition with.
      maxParallelism: head.maxParallelism,
      operators: Object.freeze(chain.map(toJobOperator)),
      inputs: Object.freeze(head.inputs.map(toJobEdge)),
      outputs: Object.freeze(chain.flatMap((n) => outputs[n.id]!.filter((e) => !members.has(e.targetId)).map(toJobEdge))),
    });
  });

  return Object.freeze({
    jobName: streamGraph.jobName,
    vertices: Object.freeze(vertices),
    bufferTimeoutMs: streamGraph.config.bufferTimeoutMs,
    autoWatermarkIntervalMs: streamGraph.config.autoWatermarkIntervalMs,
  });
}

function outgoingEdges(nodes: readonly StreamNode[]): StreamEdge[][] {
  const outputs: StreamEdge[][] = nodes.map(() => []);
  for (const node of nodes) for (const edge of node.inputs) outputs[edge.sourceId]!.push(edge);
  // Target order, then input order: a stable order for every process.
  for (const list of outputs) list.sort((a, b) => a.targetId - b.targetId || a.inputIndex - b.inputIndex);
  return outputs;
}

function isChainable(edge: StreamEdge, nodes: readonly StreamNode[], outputs: readonly StreamEdge[][]): boolean {
  return (
    edge.partitioner === PartitionerKind.FORWARD &&
    nodes[edge.sourceId]!.parallelism === nodes[edge.targetId]!.parallelism &&
    outputs[edge.sourceId]!.length === 1
  );
}

function toJobOperator(node: StreamNode): JobOperator {
  return Object.freeze({ nodeId: node.id, operatorId: node.operatorId, uid: node.uid, name: node.name, kind: node.spec.kind });
}
