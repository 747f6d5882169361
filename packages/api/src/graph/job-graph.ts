import type { OperatorKind, PartitionerKind } from './stream-graph.ts';

/**
 * The JobGraph is the StreamGraph with forward-connected operators of equal parallelism
 * chained into vertices. It is plain JSON: the JobManager schedules it, ships it in
 * `weir info`, and every task recomputes it from its own StreamGraph and finds its vertex by ID.
 */
export interface JobGraph {
  readonly jobName: string;
  /** Topologically sorted: every vertex comes after the vertices it reads from. */
  readonly vertices: readonly JobVertex[];
  readonly bufferTimeoutMs: number;
  /** How often sources and timestamp assigners emit watermarks; 0: never periodically. */
  readonly autoWatermarkIntervalMs: number;
}

/** One chain of operators, deployed as one task per subtask (Flink's JobVertex). */
export interface JobVertex {
  /** The operator ID of the chain's head operator. */
  readonly id: string;
  /** The chained operator names as Flink shows them: "a -> b", and "a -> (b, c)" where a chain forks. */
  readonly name: string;
  readonly parallelism: number;
  readonly maxParallelism: number;
  /** Head first, then by node id: every operator after the one it reads from (a chain can fork). */
  readonly operators: readonly JobOperator[];
  /** Edges into the head operator, in input order. */
  readonly inputs: readonly JobEdge[];
  /** Edges leaving any operator of the chain for another vertex. */
  readonly outputs: readonly JobEdge[];
}

/** One operator inside a JobVertex's chain. */
export interface JobOperator {
  /** Index of the StreamNode this operator came from. */
  readonly nodeId: number;
  readonly operatorId: string;
  readonly uid: string | undefined;
  readonly name: string;
  readonly kind: OperatorKind;
}

/** A network connection between two JobVertices (Flink's JobEdge). */
export interface JobEdge {
  readonly sourceVertexId: string;
  readonly targetVertexId: string;
  /** The StreamNode (inside the source vertex's chain) that emits onto this edge. */
  readonly sourceNodeId: number;
  /** The StreamNode (head of the target vertex) that reads from it. */
  readonly targetNodeId: number;
  readonly inputIndex: 0 | 1;
  readonly partitioner: PartitionerKind;
  /** A side output's edge: only what the source node emitted to this tag ID travels on it. */
  readonly outputTag?: string;
}
