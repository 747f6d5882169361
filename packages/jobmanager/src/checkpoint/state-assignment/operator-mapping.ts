import type { JobGraph, JobVertex } from '@weir/api';
import { WeirError, type CheckpointMetadata, type OperatorMetadata } from '@weir/common';
import { JobManagerErrorCode } from '../../errors.ts';
import { operatorLabel } from './operator-label.ts';

/** An operator of the checkpoint with state, and the vertex of the job that now runs it. */
export interface MappedOperator {
  readonly saved: OperatorMetadata;
  readonly vertex: JobVertex;
}

export interface OperatorMapping {
  /** By operator ID. */
  readonly mapped: ReadonlyMap<string, MappedOperator>;
  /** Operators with state the job no longer has, left behind because allowNonRestoredState was given. */
  readonly skipped: readonly OperatorMetadata[];
}

/**
 * Matches the checkpoint's operators with state to the job's operators by operator ID and
 * checks that their state can move to where the job runs it now. `source` names the
 * checkpoint or savepoint in errors ("savepoint /sp/savepoint-1a2b3c-x", "checkpoint 7").
 *
 * Throws UNMAPPED_STATE for state no operator takes (unless allowNonRestoredState), and
 * RESTORE_MISMATCH for keyed state under another max parallelism or in-flight data of an
 * unaligned checkpoint when any parallelism changed.
 */
export function mapOperators(metadata: CheckpointMetadata, jobGraph: JobGraph, allowNonRestoredState: boolean, source: string): OperatorMapping {
  const vertexOf = new Map<string, JobVertex>();
  for (const vertex of jobGraph.vertices) for (const operator of vertex.operators) vertexOf.set(operator.operatorId, vertex);
  const mapped = new Map<string, MappedOperator>();
  const unmapped: OperatorMetadata[] = [];
  for (const saved of metadata.operators) {
    if (!hasState(saved)) continue;
    const vertex = vertexOf.get(saved.operatorId);
    if (vertex === undefined) unmapped.push(saved);
    else mapped.set(saved.operatorId, { saved, vertex });
  }
  if (unmapped.length > 0 && !allowNonRestoredState) {
    throw new WeirError(
      JobManagerErrorCode.UNMAPPED_STATE,
      `${source} holds state of ${unmapped.length === 1 ? 'an operator' : `${unmapped.length} operators`} the job does not have: ${unmapped.map(operatorLabel).join(', ')}; ` +
        'give the operators of the new job the uids they had, or pass -n (--allowNonRestoredState) to start without that state',
    );
  }
  for (const { saved, vertex } of mapped.values()) {
    if (saved.maxParallelism !== vertex.maxParallelism && hasKeyedState(saved)) {
      throw new WeirError(
        JobManagerErrorCode.RESTORE_MISMATCH,
        `${source} holds keyed state of ${operatorLabel(saved)} with max parallelism ${saved.maxParallelism}, and the job now gives it max parallelism ${vertex.maxParallelism}; ` +
          `keyed state is split into max-parallelism key groups, so it must not change: set setMaxParallelism(${saved.maxParallelism}) on the operator (or pipeline.max-parallelism)`,
      );
    }
  }
  // In-flight data belongs to the input of the chain its operator headed; chained now (another
  // chaining, e.g. a fork Weir did not chain before), the operator has no input of its own to replay it into.
  const unheaded = [...mapped.values()].find(({ saved, vertex }) => hasChannelState(saved) && vertex.operators[0]?.operatorId !== saved.operatorId);
  if (unheaded !== undefined) {
    throw new WeirError(
      JobManagerErrorCode.RESTORE_MISMATCH,
      `${source} is an unaligned checkpoint holding in-flight data of ${operatorLabel(unheaded.saved)}, which the job now chains behind ` +
        `'${unheaded.vertex.name}'; in-flight data can only go back to the input it was read from: restore from a savepoint (aligned) to change the chaining`,
    );
  }
  const inFlight = [...mapped.values()].find(({ saved }) => hasChannelState(saved));
  // Any changed parallelism reroutes channels, stateless operators' included.
  const rescaled = metadata.operators.find((saved) => {
    const vertex = vertexOf.get(saved.operatorId);
    return vertex !== undefined && vertex.parallelism !== saved.parallelism;
  });
  if (inFlight !== undefined && rescaled !== undefined) {
    throw new WeirError(
      JobManagerErrorCode.RESTORE_MISMATCH,
      `${source} is an unaligned checkpoint holding in-flight data (of ${operatorLabel(inFlight.saved)}), and ${operatorLabel(rescaled)} now runs at parallelism ` +
        `${vertexOf.get(rescaled.operatorId)!.parallelism} instead of ${rescaled.parallelism}; in-flight data cannot be redistributed: restore from a savepoint (aligned) to rescale`,
    );
  }
  return { mapped, skipped: unmapped };
}

/** Whether a checkpoint holds any state of the operator: a restore must put it somewhere. */
function hasState(operator: OperatorMetadata): boolean {
  return operator.subtasks.some(
    (s) => s !== null && ((s.keyed?.length ?? 0) > 0 || (s.operator?.length ?? 0) > 0 || (s.channel ?? undefined) !== undefined),
  );
}

function hasKeyedState(operator: OperatorMetadata): boolean {
  return operator.subtasks.some((s) => (s?.keyed?.length ?? 0) > 0);
}

function hasChannelState(operator: OperatorMetadata): boolean {
  return operator.subtasks.some((s) => (s?.channel ?? undefined) !== undefined);
}
