import { MAX_MAX_PARALLELISM, WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';

/** `what` names the thing being set, e.g. "the environment" or "operator 'split'". */
export function requireParallelism(parallelism: number, what: string): number {
  if (!Number.isInteger(parallelism) || parallelism < 1 || parallelism > MAX_MAX_PARALLELISM) {
    throw new WeirError(
      ApiErrorCode.INVALID_PARALLELISM,
      `parallelism of ${what} must be an integer from 1 to ${MAX_MAX_PARALLELISM}, got ${parallelism}`,
    );
  }
  return parallelism;
}

export function requireMaxParallelism(maxParallelism: number, what: string): number {
  if (!Number.isInteger(maxParallelism) || maxParallelism < 1 || maxParallelism > MAX_MAX_PARALLELISM) {
    throw new WeirError(
      ApiErrorCode.INVALID_MAX_PARALLELISM,
      `max parallelism of ${what} must be an integer from 1 to ${MAX_MAX_PARALLELISM}, got ${maxParallelism}`,
    );
  }
  return maxParallelism;
}

/** -1 means "derive from each operator's parallelism". */
export function requireMaxParallelismOrDerive(maxParallelism: number, what: string): number {
  return maxParallelism === -1 ? -1 : requireMaxParallelism(maxParallelism, what);
}

export function requireBufferTimeout(timeoutMs: number): number {
  if (!Number.isInteger(timeoutMs) || timeoutMs < -1) {
    throw new WeirError(
      ApiErrorCode.INVALID_BUFFER_TIMEOUT,
      `buffer timeout must be -1 (flush only full buffers), 0 (flush every record) or a positive number of ms, got ${timeoutMs}`,
    );
  }
  return timeoutMs;
}

export function requireUid(uid: unknown): string {
  if (typeof uid !== 'string' || uid.length === 0) {
    throw new WeirError(ApiErrorCode.INVALID_UID, `uid() needs a non-empty string that stays the same across versions of the job, got ${String(uid)}`);
  }
  return uid;
}

export function requireName(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new WeirError(ApiErrorCode.INVALID_NAME, `name() needs a non-empty string, got ${String(name)}`);
  }
  return name;
}
