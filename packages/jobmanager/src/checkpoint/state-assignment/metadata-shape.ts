import type { CheckpointMetadata } from '@weir/common';

/**
 * `_metadata` bytes of a savepoint or retained checkpoint of any job, checked deeply enough
 * that assigning and verifying its state cannot trip over it: a string says what is wrong.
 */
export function parseCheckpointMetadata(bytes: Uint8Array): CheckpointMetadata | string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (err) {
    return `it is not JSON (${(err as Error).message})`;
  }
  if (!isObject(value)) return 'it is not a JSON object';
  if (value.version !== 1) return `its version is ${JSON.stringify(value.version)}, not 1`;
  if (value.kind !== 'checkpoint' && value.kind !== 'savepoint') return `its kind is ${JSON.stringify(value.kind)}, not checkpoint or savepoint`;
  if (!isCount(value.checkpointId) || value.checkpointId < 1) return `its checkpointId is ${JSON.stringify(value.checkpointId)}, not a positive integer`;
  if (typeof value.jobId !== 'string' || typeof value.jobName !== 'string') return 'it lacks jobId or jobName';
  if (!Array.isArray(value.operators)) return 'it lists no operators';
  for (const [i, operator] of value.operators.entries()) {
    const problem = operatorProblem(operator);
    if (problem !== undefined) return `operator entry ${i}: ${problem}`;
  }
  return value as unknown as CheckpointMetadata;
}

type Json = Record<string, unknown>;

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
    const problem = subtaskProblem(state);
    if (problem !== undefined) return `subtask ${index}: ${problem}`;
  }
  return undefined;
}

function subtaskProblem(state: unknown): string | undefined {
  if (state === null) return undefined;
  if (!isObject(state)) return 'its state is neither null nor an object';
  if (state.keyed !== undefined) {
    if (!Array.isArray(state.keyed)) return 'its keyed state is not a list';
    for (const handle of state.keyed) {
      const problem = keyedProblem(handle);
      if (problem !== undefined) return `keyed state: ${problem}`;
    }
  }
  if (state.operator !== undefined) {
    if (!Array.isArray(state.operator)) return 'its operator state is not a list';
    for (const handle of state.operator) {
      if (!isObject(handle) || !isObject(handle.states) || !isStreamHandle(handle.handle)) return 'operator state: a handle lacks its bytes or list names';
      if (Object.values(handle.states).some((s) => !isObject(s) || (s.mode !== 'split' && s.mode !== 'union'))) return 'operator state: a list mode is neither split nor union';
    }
  }
  if (state.channel !== undefined && state.channel !== null) {
    if (!isObject(state.channel) || !isStreamHandle(state.channel.handle) || !Array.isArray(state.channel.channels)) return 'channel state lacks its bytes or channels';
  }
  return undefined;
}

function keyedProblem(handle: unknown): string | undefined {
  if (!isObject(handle) || !isObject(handle.states)) return 'a handle lacks its state descriptions';
  const range = handle.keyGroupRange;
  if (!isObject(range) || !isCount(range.start) || !Number.isInteger(range.end)) return 'a handle lacks its key-group range';
  if (handle.backend === 'heap') {
    if (!Array.isArray(handle.offsets) || !handle.offsets.every(isCount) || !isStreamHandle(handle.handle)) return 'a heap handle lacks its offsets or bytes';
    return undefined;
  }
  if (handle.backend === 'level') {
    if (!Array.isArray(handle.files)) return 'a LevelDB handle lists no files';
    for (const file of handle.files) {
      if (!isObject(file) || typeof file.name !== 'string' || (file.location !== 'private' && file.location !== 'shared') || !isPath(file.path) || !isCount(file.size)) {
        return 'a LevelDB file lacks its name, location (private or shared), path or size';
      }
    }
    return undefined;
  }
  return `its backend is ${JSON.stringify(handle.backend)}, not heap or level`;
}

function isStreamHandle(handle: unknown): boolean {
  if (!isObject(handle) || !isCount(handle.size)) return false;
  if (handle.kind === 'inline') return typeof handle.data === 'string';
  return handle.kind === 'file' && isPath(handle.path);
}

/** A relative path below the directory; `..` would reach outside what was copied with it. */
function isPath(path: unknown): boolean {
  return typeof path === 'string' && path !== '' && !path.startsWith('/') && !path.split('/').includes('..');
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
