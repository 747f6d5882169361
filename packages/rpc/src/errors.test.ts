import { describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { WeirError } from '@weir/common';
import { fromServiceError, toServiceError } from './errors.ts';

describe('errors across gRPC', () => {
  it('keeps a WeirError code and cuts a message too long for a status trailer', () => {
    const status = toServiceError(new WeirError('INVALID_JOB', `job x: ${'y'.repeat(10_000)}`));
    expect(status.metadata!.get('weir-error-code')).toEqual(['INVALID_JOB']);
    expect(status.details).toBe(`job x: ${'y'.repeat(4_096 - 7)}… (${10_007 - 4_096} more characters cut)`);
    expect(toServiceError(new WeirError('JOB_NOT_FOUND', 'short')).details).toBe('short');
  });

  it('sends a path outside the allowed roots as PERMISSION_DENIED and a rate limit as RESOURCE_EXHAUSTED, and reads both back by their Weir code', () => {
    const path = toServiceError(new WeirError('PATH_NOT_ALLOWED', 'savepoint path /etc is outside the directories this JobManager allows'));
    const rate = toServiceError(new WeirError('RATE_LIMITED', 'too many requests'));
    expect([path.code, rate.code]).toEqual([grpc.status.PERMISSION_DENIED, grpc.status.RESOURCE_EXHAUSTED]);
    expect(fromServiceError(Object.assign(new Error('8: RESOURCE_EXHAUSTED'), rate) as grpc.ServiceError).code).toBe('RATE_LIMITED');
  });

  it('reads RESOURCE_EXHAUSTED as MESSAGE_TOO_LARGE, naming the limit to raise', () => {
    const err = Object.assign(new Error('8: RESOURCE_EXHAUSTED'), {
      code: grpc.status.RESOURCE_EXHAUSTED,
      details: 'Received message larger than max (5000000 vs 4194304)',
      metadata: new grpc.Metadata(),
    });
    const weir = fromServiceError(err, 'jm:6123');
    expect([weir.code, weir.message]).toEqual([
      'MESSAGE_TOO_LARGE',
      'jm:6123 refused a message as too large (Received message larger than max (5000000 vs 4194304)); a JobManager accepts requests up to jobmanager.rpc.max-message-size',
    ]);
  });
});
