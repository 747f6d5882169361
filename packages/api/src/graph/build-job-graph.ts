import type { JobEdge, JobGraph, JobOperator, JobVertex } from './job-graph.ts';
import { PartitionerKind, type StreamEdge, type StreamGraph, type StreamNode } from './stream-graph.ts';

/**
 * Chains the StreamGraph into the JobGraph as Flink does: B is chained onto A when the edge
 * A→B is FORWARD, both have the same parallelism and it is B's only input edge, however many
 * outputs A has. A chain is so a tree: an operator with several chained successors hands each
 * record to every one of them (runtime's broadcasting output), its unchained edges go to the network.
 */
export function buildJobGraph(streamGraph: StreamGraph): JobGraph {
  const { nodes } = streamGraph;
  const outputs = outgoingEdges(nodes);
  const chainedIntoPredecessor = nodes.map((node) => node.inputs.length === 1 && isChainable(node.inputs[0]!, nodes));

  const vertexOfNode = new Map<number, StreamNode>();
  const chains: StreamNode[][] = [];
  for (const node of nodes) {
    if (chainedIntoPredecessor[node.id]) continue;
    const chain = chainFrom(node, nodes, outputs, chainedIntoPredecessor);
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
      name: chainedName(head, nodes, outputs, chainedIntoPredecessor),
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

function isChainable(edge: StreamEdge, nodes: readonly StreamNode[]): boolean {
  return edge.partitioner === PartitionerKind.FORWARD && nodes[edge.sourceId]!.parallelism === nodes[edge.targetId]!.parallelism;
}

/** The edges of `node` that chain: to a successor whose only input they are. */
function chainedOutputs(node: StreamNode, outputs: readonly StreamEdge[][], chainedIntoPredecessor: readonly boolean[]): StreamEdge[] {
  return outputs[node.id]!.filter((e) => chainedIntoPredecessor[e.targetId]);
}

/**
 * The head and every operator chained below it, by node id: a topological order (an operator
 * comes after the one it reads from), which the runtime opens tail first and finishes head first.
 */
function chainFrom(head: StreamNode, nodes: readonly StreamNode[], outputs: readonly StreamEdge[][], chainedIntoPredecessor: readonly boolean[]): StreamNode[] {
  const chain: StreamNode[] = [];
  const pending = [head];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    chain.push(node);
    for (const edge of chainedOutputs(node, outputs, chainedIntoPredecessor)) pending.push(nodes[edge.targetId]!);
  }
  return chain.sort((a, b) => a.id - b.id);
}

/** Flink's chain name: "a -> b" for one chained successor, "a -> (b, c -> d)" for several. */
function chainedName(node: StreamNode, nodes: readonly StreamNode[], outputs: readonly StreamEdge[][], chainedIntoPredecessor: readonly boolean[]): string {
  const below = chainedOutputs(node, outputs, chainedIntoPredecessor).map((e) => chainedName(nodes[e.targetId]!, nodes, outputs, chainedIntoPredecessor));
  if (below.length === 0) return node.name;
  return below.length === 1 ? `${node.name} -> ${below[0]}` : `${node.name} -> (${below.join(', ')})`;
}

function toJobOperator(node: StreamNode): JobOperator {
  return Object.freeze({ nodeId: node.id, operatorId: node.operatorId, uid: node.uid, name: node.name, kind: node.spec.kind });
}
