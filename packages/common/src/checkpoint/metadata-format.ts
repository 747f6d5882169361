import { isCount, isObject, parseJson, subtaskStateProblem } from './snapshot-format.ts';
import type { CheckpointMetadata } from './types.ts';

/**
 * `_metadata` as bytes: JSON of CheckpointMetadata. One encoder (the JobManager writes it
 * last and atomically) and one decoder, used by failover, `weir run -s` and savepoint
 * disposal alike.
 */
export function encodeCheckpointMetadata(metadata: CheckpointMetadata): Uint8Array {
  return Buffer.from(JSON.stringify(metadata), 'utf8');
}

/** What a reader knows the metadata must describe: failover reads back a checkpoint of its own job. */
export interface ExpectedMetadata {
  readonly jobId: string;
  readonly checkpointId: number;
}

/**
 * The metadata in `bytes`, checked whole (every operator and every state handle, see
 * snapshot-format.ts) and, with `expected`, to be that checkpoint of that job; a string says
 * what is wrong with it ("it is not JSON (…)", "it describes checkpoint 7, not 8", …).
 */
export function decodeCheckpointMetadata(bytes: Uint8Array, expected?: ExpectedMetadata): CheckpointMetadata | string {
  const parsed = parseJson(bytes);
  if (typeof parsed === 'string') return `it is ${parsed}`;
  const value = parsed.value;
  if (typeof value !== 'object' || value === null) return 'it is not a JSON object';
  const metadata = value as Record<string, unknown>;
  if (metadata.version !== 1) return `its version is ${shownValue(metadata.version)}, not 1`;
  if (expected !== undefined) {
    if (metadata.checkpointId !== expected.checkpointId) return `it describes checkpoint ${JSON.stringify(metadata.checkpointId)}, not ${expected.checkpointId}`;
    if (metadata.jobId !== expected.jobId) return `it belongs to job ${JSON.stringify(metadata.jobId)}, not ${expected.jobId}`;
  }
  if (metadata.kind !== 'checkpoint' && metadata.kind !== 'savepoint') return `its kind is ${shownValue(metadata.kind)}, not checkpoint or savepoint`;
  if (!isCount(metadata.checkpointId) || metadata.checkpointId < 1) return `its checkpointId is ${shownValue(metadata.checkpointId)}, not a positive integer`;
  if (typeof metadata.jobId !== 'string' || typeof metadata.jobName !== 'string') return 'it lacks jobId or jobName';
  if (!Array.isArray(metadata.operators)) return 'it lists no operators';
  for (const [i, operator] of metadata.operators.entries()) {
    const problem = operatorProblem(operator);
    if (problem !== undefined) return `operator entry ${i}: ${problem}`;
  }
  return metadata as unknown as CheckpointMetadata;
}

function operatorProblem(op: unknown): string | undefined {
  if (!isObject(op)) return 'it is not an object';
  if (typeof op.operatorId !== 'string' || op.operatorId === '' || typeof op.name !== 'string') return 'it lacks operatorId or name';
  if (op.uid !== undefined && op.uid !== null && typeof op.uid !== 'string') return 'its uid is not a string';
  if (!isCount(op.parallelism) || op.parallelism < 1 || !isCount(op.maxParallelism) || op.maxParallelism < op.parallelism) {
    return `its parallelism ${JSON.stringify(op.parallelism)} and max parallelism ${JSON.stringify(op.maxParallelism)} are not 1 <= parallelism <= max parallelism`;
  }
  if (!Array.isArray(op.subtasks) || op.subtasks.length !== op.parallelism) return `it does not list state for each of its ${op.parallelism} subtasks`;
  if (op.coordinatorState !== undefined && typeof op.coordinatorState !== 'string') return 'its split enumerator state is not a string';
  for (const [index, state] of op.subtasks.entries()) {
    if (state === null) continue;
    const problem = isObject(state) ? subtaskStateProblem(state) : 'its state is neither null nor an object';
    if (problem !== undefined) return `subtask ${index}: ${problem}`;
  }
  return undefined;
}

/**
 * A value read from a file named as `_metadata`, for a message: numbers and the words Weir
 * writes as they are, anything else by its type only. The file may be any JSON file the
 * JobManager can read, and its values are not the caller's to see.
 */
function shownValue(value: unknown): string {
  if (typeof value === 'number' || value === undefined || value === null || value === 'checkpoint' || value === 'savepoint') return String(JSON.stringify(value));
  return Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
