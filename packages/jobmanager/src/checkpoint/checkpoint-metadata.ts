import type { JobGraph } from '@weir/api';
import { encodeCoordinatorState, type CheckpointMetadata, type OperatorSubtaskState, type TaskStateSnapshot } from '@weir/common';

export interface MetadataSource {
  readonly jobId: string;
  readonly jobGraph: JobGraph;
  readonly checkpointId: number;
  readonly timestamp: number;
  readonly kind: CheckpointMetadata['kind'];
  /** The acknowledged snapshot of a subtask. */
  stateOf(vertexId: string, index: number): TaskStateSnapshot | undefined;
  /** Split enumerator states taken for this checkpoint, by operator ID. */
  readonly coordinatorStates?: ReadonlyMap<string, unknown>;
}

/**
 * `_metadata` of a checkpoint: every operator of the job with its parallelisms and, per
 * subtask index, the state its task acknowledged (null when it had none).
 */
export function buildCheckpointMetadata(source: MetadataSource): CheckpointMetadata {
  const { jobGraph } = source;
  return {
    version: 1,
    kind: source.kind,
    jobId: source.jobId,
    jobName: jobGraph.jobName,
    checkpointId: source.checkpointId,
    timestamp: source.timestamp,
    operators: jobGraph.vertices.flatMap((vertex) =>
      vertex.operators.map((operator) => ({
        operatorId: operator.operatorId,
        uid: operator.uid,
        name: operator.name,
        parallelism: vertex.parallelism,
        maxParallelism: vertex.maxParallelism,
        subtasks: Array.from({ length: vertex.parallelism }, (_, index): OperatorSubtaskState | null => {
          return source.stateOf(vertex.id, index)?.operators[operator.operatorId] ?? null;
        }),
        ...(source.coordinatorStates?.has(operator.operatorId) === true && { coordinatorState: encodeCoordinatorState(source.coordinatorStates.get(operator.operatorId)) }),
      })),
    ),
  };
}
