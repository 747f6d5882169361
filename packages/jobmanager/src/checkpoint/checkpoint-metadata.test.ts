import { describe, expect, it } from 'vitest';
import type { CheckpointMetadata } from '@weir/common';
import { decodeMetadata, encodeMetadata } from './checkpoint-metadata.ts';

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
    expect(decodeMetadata(Buffer.from(JSON.stringify({ ...metadata, operators: [{ operatorId: 'x' }] })), 'job-1', 7)).toBe(
      'an operator entry lacks operatorId, parallelism or subtasks',
    );
  });
});
