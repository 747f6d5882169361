import { systemClock, WeirError, type Clock } from '@weir/common';
import { StorageErrorCode } from './errors.ts';

/** How often and how patiently a remote call is tried: delays double from initialDelayMs up to maxDelayMs. */
export interface RetryPolicy {
  readonly attempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, initialDelayMs: 100, maxDelayMs: 2_000 };

/**
 * Runs `operation` until it succeeds or `policy.attempts` attempts failed, waiting with
 * exponential backoff in between; then fails with STORAGE_FAILURE
 * `<description> failed after N attempts: <cause>`. A WeirError thrown by the operation is
 * an answer, not an outage (STORAGE_NOT_FOUND): it is rethrown at once, untried again.
 */
export async function withRetry<T>(
  operation: () => Promise<T>,
  description: string,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  clock: Clock = systemClock,
): Promise<T> {
  let delayMs = policy.initialDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof WeirError) throw error;
      if (attempt >= policy.attempts) {
        throw new WeirError(
          StorageErrorCode.STORAGE_FAILURE,
          `${description} failed after ${attempt} attempts: ${describeCause(error)}`,
          { cause: error },
        );
      }
    }
    await sleep(clock, delayMs);
    delayMs = Math.min(delayMs * 2, policy.maxDelayMs);
  }
}

function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/** One line for an error of the S3 client or of node:fs/net: its name or code and its message. */
export function describeCause(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(describeCause).join('; ');
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const label = typeof code === 'string' ? code : error.name;
    if (error.message === '') return label;
    return error.message.includes(label) || label === 'Error' ? error.message : `${label}: ${error.message}`;
  }
  return String(error);
}
