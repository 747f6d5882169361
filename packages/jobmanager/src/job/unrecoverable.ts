import { ApiErrorCode } from '@weir/api';
import type { WeirError } from '@weir/common';

/**
 * Failure codes no restart can fix (Flink's SuppressRestartsException): the attempt failed
 * restoring state that does not fit the job, and every new attempt would restore the same.
 */
const UNRECOVERABLE_CODES: ReadonlySet<string> = new Set([
  ApiErrorCode.INCOMPATIBLE_STATE_SCHEMA,
  // @weir/runtime's RuntimeErrorCode.STATE_DESCRIPTOR_MISMATCH, spelled out: the JobManager does not depend on the runtime.
  'STATE_DESCRIPTOR_MISMATCH',
]);

/** Whether the job must fail at once, whatever its restart strategy says. */
export function suppressesRestarts(cause: WeirError): boolean {
  return UNRECOVERABLE_CODES.has(cause.code);
}
