import type { TaskStateSnapshot } from './types.ts';

/**
 * The one check of state handles read from another process or from storage: a task's
 * acknowledgement (JobManager), its restore share (TaskManager) and every subtask of a
 * `_metadata` file (failover and `weir run -s`). Deep enough that restoring, reassigning and
 * deleting cannot trip over what passed it. Problems are phrases that fit after "state that
 * is": "not JSON (…)", "not a TaskStateSnapshot: …".
 */

type Json = Record<string, unknown>;

/** TaskStateSnapshot as JSON bytes, as acknowledgements and restore shares carry it. */
export function encodeTaskStateSnapshot(snapshot: TaskStateSnapshot): Buffer {
  return Buffer.from(JSON.stringify(snapshot), 'utf8');
}

/**
 * The snapshot in `bytes`, checked whole; a string says what is wrong. Empty bytes are a
 * snapshot without state: proto3 cannot tell empty bytes from unset ones.
 */
export function decodeTaskStateSnapshot(bytes: Uint8Array): TaskStateSnapshot | string {
  if (bytes.length === 0) return { operators: {} };
  const parsed = parseJson(bytes);
  if (typeof parsed === 'string') return parsed;
  const { value } = parsed;
  if (!isObject(value) || !isObject(value.operators)) return 'not an object with an "operators" object';
  for (const [operatorId, state] of Object.entries(value.operators)) {
    const problem = isObject(state) ? subtaskStateProblem(state) : 'its state is not an object';
    if (problem !== undefined) return `not a TaskStateSnapshot: operator ${operatorId}: ${problem}`;
  }
  return value as unknown as TaskStateSnapshot;
}

/** JSON bytes as a value, or "not JSON (…)". */
export function parseJson(bytes: Uint8Array): { readonly value: unknown } | string {
  try {
    return { value: JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) };
  } catch (err) {
    return `not JSON (${jsonSyntaxProblem(err)})`;
  }
}

/**
 * Where JSON.parse gave up, without the text it quotes: V8's message shows the first bytes of
 * the input ("Unexpected token 'r', \"root:*:202\"... is not valid JSON"), and a file named
 * as a savepoint may be any file the JobManager can read (/etc/shadow).
 */
export function jsonSyntaxProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  if (message.includes('Unexpected end of JSON input')) return 'it ends before its JSON does';
  const position = /at position (\d+)/.exec(message)?.[1];
  return position === undefined ? 'it does not start as JSON' : `invalid at character ${position}`;
}

/** What is wrong with one operator subtask's state (an OperatorSubtaskState), or undefined. */
export function subtaskStateProblem(state: Json): string | undefined {
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
      if (Object.values(handle.states).some((s) => !isObject(s) || (s.mode !== 'split' && s.mode !== 'union' && s.mode !== 'broadcast'))) return 'operator state: a list mode is neither split, union nor broadcast';
    }
  }
  if (state.channel !== undefined && state.channel !== null) {
    if (!isObject(state.channel) || !isStreamHandle(state.channel.handle) || !Array.isArray(state.channel.channels)) return 'channel state lacks its bytes or channels';
    if (!state.channel.channels.every(isChannelEntry)) return 'channel state: an entry lacks its direction (input or output), vertex, subtask or buffers';
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
    if (handle.baseCheckpointId !== undefined && !isCount(handle.baseCheckpointId)) return 'a LevelDB handle names a base checkpoint that is no checkpoint ID';
    for (const file of handle.files) {
      if (!isObject(file) || typeof file.name !== 'string' || (file.location !== 'private' && file.location !== 'shared') || !isPath(file.path) || !isCount(file.size)) {
        return 'a LevelDB file lacks its name, location (private or shared), path or size';
      }
      if (!DB_FILE_NAME.test(file.name)) return `a LevelDB file is named ${JSON.stringify(file.name.slice(0, 64))}, not a file name of a LevelDB directory`;
      if (file.offset !== undefined && !isCount(file.offset)) return `LevelDB file ${file.name} has a segment offset that is no byte count`;
    }
    if (handle.changelog !== undefined) {
      if (!Array.isArray(handle.changelog)) return 'a LevelDB handle has a changelog that is not a list';
      for (const segment of handle.changelog) {
        if (!isObject(segment) || typeof segment.name !== 'string' || !CHANGELOG_NAME.test(segment.name) || segment.location !== 'shared' || !isPath(segment.path) || !isCount(segment.size)) {
          return 'a LevelDB changelog segment lacks its name (changelog-<n>), shared location, path or size';
        }
      }
    }
    return segmentsProblem(handle.files as Json[]);
  }
  return `its backend is ${JSON.stringify(handle.backend)}, not heap or level`;
}

/** A changelog segment's name: its sequence number. */
const CHANGELOG_NAME = /^changelog-\d{1,16}$/;

/** CURRENT, MANIFEST-000004, 000012.ldb, 000009.log: a name inside the DB directory, never a path. */
const DB_FILE_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]{1,64}$/;

/** Each file is listed once whole, or as segments (offset set) that follow one another from byte 0 in list order. */
function segmentsProblem(files: readonly Json[]): string | undefined {
  const next = new Map<string, number | 'whole'>();
  for (const file of files) {
    const name = file.name as string;
    const expected = next.get(name);
    if (file.offset === undefined) {
      if (expected !== undefined) return `LevelDB file ${name} is listed more than once`;
      next.set(name, 'whole');
      continue;
    }
    if (expected === 'whole' || file.offset !== (expected ?? 0)) return `the segments of LevelDB file ${name} do not follow one another from byte 0`;
    next.set(name, (file.offset as number) + (file.size as number));
  }
  return undefined;
}

function isChannelEntry(entry: unknown): boolean {
  return (
    isObject(entry) &&
    (entry.direction === 'input' || entry.direction === 'output') &&
    typeof entry.vertexId === 'string' &&
    isCount(entry.subtask) &&
    (entry.input === undefined || isCount(entry.input)) &&
    Array.isArray(entry.buffers) &&
    entry.buffers.every((b) => Array.isArray(b) && b.length === 3 && b.every(isCount))
  );
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

export function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
