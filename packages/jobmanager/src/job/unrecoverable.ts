import { ApiErrorCode } from '@weir/api';
import type { WeirError } from '@weir/common';

/**
 * Failure codes no restart can fix (Flink's SuppressRestartsException): every new attempt
 * would fail the same way, so the job goes to FAILED at once with the cause.
 */
const UNRECOVERABLE_CODES: ReadonlySet<string> = new Set([
  // The restored state does not fit the job, and every attempt restores the same.
  ApiErrorCode.INCOMPATIBLE_STATE_SCHEMA,
  // @weir/runtime's RuntimeErrorCode codes, spelled out: the JobManager does not depend on the runtime.
  'STATE_DESCRIPTOR_MISMATCH',
  // The job's code uses broadcast state wrongly, or applyToKeyedState on a backend that cannot visit its keys: every attempt does the same.
  'BROADCAST_STATE_MISUSED',
  'KEYED_STATE_ITERATION_UNSUPPORTED',
  // A record the job emits cannot reach the next task unchanged; the same input emits it again.
  'RECORD_REFUSED',
  // A record buffer cannot be decoded (its Types.CUSTOM deserialize throws, say); replayed, it fails again.
  'RECORD_DECODE_FAILED',
  // @weir/connectors' ConnectorErrorCode.KAFKA_TRANSACTION_ABORTED: a restore would try to commit the same aborted transaction again.
  'KAFKA_TRANSACTION_ABORTED',
  // ConnectorErrorCode.KAFKA_TRANSACTION_TIMEOUT_TOO_LONG: the brokers refuse the sink's transaction timeout on every attempt.
  'KAFKA_TRANSACTION_TIMEOUT_TOO_LONG',
]);

/** Whether the job must fail at once, whatever its restart strategy says. */
export function suppressesRestarts(cause: WeirError): boolean {
  return UNRECOVERABLE_CODES.has(cause.code);
}
