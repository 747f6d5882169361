import { describe, expect, it } from 'vitest';
import { decodeCheckpointMetadata, encodeCheckpointMetadata } from './metadata-format.ts';
import type { CheckpointMetadata } from './types.ts';

const decodeMetadata = (bytes: Uint8Array, jobId: string, checkpointId: number) => decodeCheckpointMetadata(bytes, { jobId, checkpointId });
const encodeMetadata = encodeCheckpointMetadata;

const state = { operator: [{ handle: { kind: 'inline', data: 'AAE=', size: 2 }, states: { '$source-reader': { mode: 'split' } } }] } as const;

const metadata: CheckpointMetadata = {
  version: 1,
  kind: 'checkpoint',
  jobId: 'job-1',
  jobName: 'test job',
  checkpointId: 7,
  timestamp: 1_234,
  operators: [{ operatorId: 'op-src', uid: 'source-uid', name: 'V-src', parallelism: 2, maxParallelism: 128, subtasks: [state, null] }],
};

describe('checkpoint metadata', () => {
  it('reads back what it wrote and refuses what is not checkpoint 7 of job-1', () => {
    expect(decodeMetadata(encodeMetadata(metadata), 'job-1', 7)).toEqual(metadata);
    expect(decodeMetadata(encodeMetadata(metadata), 'job-1', 8)).toBe('it describes checkpoint 7, not 8');
    expect(decodeMetadata(encodeMetadata(metadata), 'job-2', 7)).toBe('it belongs to job "job-1", not job-2');
    expect(decodeMetadata(encodeMetadata({ ...metadata, version: 2 as 1 }), 'job-1', 7)).toBe('its version is 2, not 1');
    expect(decodeMetadata(Buffer.from('[]'), 'job-1', 7)).toBe('its version is undefined, not 1');
    // The one decoder of `_metadata` says what `weir run -s` said for it (restore-from-savepoint.test.ts).
    expect(decodeMetadata(Buffer.from(JSON.stringify({ ...metadata, operators: [{ operatorId: 'x' }] })), 'job-1', 7)).toBe('operator entry 0: it lacks operatorId or name');
  });

  it('checks every operator and state handle, with or without an expected job', () => {
    const withState = (subtask: unknown) => encodeMetadata({ ...metadata, operators: [{ ...metadata.operators[0]!, subtasks: [subtask as null, null] }] });
    expect(decodeCheckpointMetadata(encodeMetadata(metadata))).toEqual(metadata);
    expect(decodeCheckpointMetadata(withState({ keyed: [{ backend: 'rocks', keyGroupRange: { start: 0, end: 1 }, states: {} }] }))).toBe(
      'operator entry 0: subtask 0: keyed state: its backend is "rocks", not heap or level',
    );
    expect(decodeCheckpointMetadata(withState({ operator: [{ handle: { kind: 'file', path: '../other-job/x', size: 1 }, states: {} }] }), { jobId: 'job-1', checkpointId: 7 })).toBe(
      'operator entry 0: subtask 0: operator state: a handle lacks its bytes or list names',
    );
    expect(decodeCheckpointMetadata(encodeMetadata({ ...metadata, checkpointId: 0 }))).toBe('its checkpointId is 0, not a positive integer');
  });

  it('says where a file is not checkpoint metadata without showing what it holds', () => {
    expect(decodeCheckpointMetadata(Buffer.from('root:*:20201:0:99999:7:::\n'))).toBe('it is not JSON (it does not start as JSON)');
    expect(decodeCheckpointMetadata(Buffer.from('{"aws_secret_access_key": '))).toBe('it is not JSON (it ends before its JSON does)');
    expect(decodeCheckpointMetadata(Buffer.from('{"password" "hunter2"}'))).toBe('it is not JSON (invalid at character 12)');
    expect(decodeCheckpointMetadata(Buffer.from('{"version": "hunter2"}'))).toBe('its version is a string, not 1');
    expect(decodeCheckpointMetadata(Buffer.from('{"version": 1, "kind": {"token": "hunter2"}}'))).toBe('its kind is an object, not checkpoint or savepoint');
  });
});
