import { levelHandleFiles, type CheckpointMetadata, type OperatorSubtaskState } from './types.ts';

/**
 * Full size of one operator subtask's state: every byte its handles refer to, the shared files
 * of incremental LevelDB checkpoints included (Flink's state size, as opposed to the
 * checkpointed size, what one checkpoint uploaded). Counted from the handles, so the
 * JobManager gets the same figure for a checkpoint it restores as the tasks reported for it.
 */
export function subtaskStateBytes(state: OperatorSubtaskState): number {
  let bytes = 0;
  for (const keyed of state.keyed ?? []) {
    bytes += keyed.backend === 'heap' ? keyed.handle.size : levelHandleFiles(keyed).reduce((sum, f) => sum + f.size, 0);
  }
  for (const operator of state.operator ?? []) bytes += operator.handle.size;
  if (state.channel !== undefined) bytes += state.channel.handle.size;
  return bytes;
}

/** Full size of a checkpoint or savepoint: the sum over its operators' subtasks. */
export function checkpointStateBytes(metadata: Pick<CheckpointMetadata, 'operators'>): number {
  let bytes = 0;
  for (const operator of metadata.operators) for (const subtask of operator.subtasks) if (subtask !== null) bytes += subtaskStateBytes(subtask);
  return bytes;
}

