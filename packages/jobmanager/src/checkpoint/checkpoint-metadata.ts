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

export function encodeMetadata(metadata: CheckpointMetadata): Uint8Array {
  return Buffer.from(JSON.stringify(metadata), 'utf8');
}

/**
 * The metadata in `bytes`, checked to be checkpoint `checkpointId` of job `jobId`; a string
 * says what is wrong with it (truncated, not JSON, another checkpoint).
 */
export function decodeMetadata(bytes: Uint8Array, jobId: string, checkpointId: number): CheckpointMetadata | string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (err) {
    return `it is not JSON (${(err as Error).message})`;
  }
  if (typeof value !== 'object' || value === null) return 'it is not a JSON object';
  const metadata = value as Partial<CheckpointMetadata>;
  if (metadata.version !== 1) return `its version is ${JSON.stringify(metadata.version)}, not 1`;
  if (metadata.checkpointId !== checkpointId) return `it describes checkpoint ${JSON.stringify(metadata.checkpointId)}, not ${checkpointId}`;
  if (metadata.jobId !== jobId) return `it belongs to job ${JSON.stringify(metadata.jobId)}, not ${jobId}`;
  if (!Array.isArray(metadata.operators)) return 'it lists no operators';
  for (const operator of metadata.operators as unknown[]) {
    const op = operator as Partial<CheckpointMetadata['operators'][number]> | null;
    if (typeof op?.operatorId !== 'string' || typeof op.parallelism !== 'number' || !Array.isArray(op.subtasks)) {
      return 'an operator entry lacks operatorId, parallelism or subtasks';
    }
  }
  return metadata as CheckpointMetadata;
}
