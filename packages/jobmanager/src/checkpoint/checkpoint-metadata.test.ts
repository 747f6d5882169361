import { describe, expect, it } from 'vitest';
import type { CheckpointMetadata } from '@weir/common';
import { jobGraph, vertex } from '../test-fixtures.ts';
import { decodeMetadata, encodeMetadata } from './checkpoint-metadata.ts';
import { restoreMismatch, taskRestoreFor } from './task-restore.ts';

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

  it('gives each subtask its own state and leaves out subtasks without any', () => {
    const src = vertex('src', 2);
    const first = taskRestoreFor({ checkpointId: 7, metadata, checkpointPath: 'file:///cp/job-1/chk-7' }, src, 0);
    expect(first.checkpointId).toBe(7);
    expect(first.checkpointPath).toBe('file:///cp/job-1/chk-7');
    expect(JSON.parse(Buffer.from(first.state as Uint8Array).toString())).toEqual({ operators: { 'op-src': state } });
    const second = taskRestoreFor({ checkpointId: 7, metadata, checkpointPath: '' }, src, 1);
    expect(JSON.parse(Buffer.from(second.state as Uint8Array).toString())).toEqual({ operators: {} });
  });

  it('names an operator whose parallelism or max parallelism changed', () => {
    expect(restoreMismatch(metadata, jobGraph(vertex('src', 2), vertex('other', 5)))).toBeUndefined();
    expect(restoreMismatch(metadata, jobGraph(vertex('src', 3)))).toBe(
      'operator V-src (op-src) had parallelism 2 and now has 3; restoring at another parallelism is not supported yet, run the job with parallelism 2',
    );
    expect(restoreMismatch({ ...metadata, operators: [{ ...metadata.operators[0]!, maxParallelism: 256 }] }, jobGraph(vertex('src', 2)))).toBe(
      'operator V-src (op-src) had max parallelism 256 and now has 128; the max parallelism of a stateful job must not change',
    );
  });
});
