import type { Logger } from '@weir/common';
import type { Action, Principal } from './roles.ts';

/** One mutating call, as the audit log records it. */
export interface AuditEntry {
  /** The principal, or undefined when the caller could not be authenticated. */
  readonly principal: Principal | undefined;
  readonly action: Action;
  /** The job acted on (for submit: the new job's ID once known). */
  readonly jobId?: string;
  /** The peer address: `ipv4:10.0.0.5:51234` (gRPC) or `10.0.0.5` (REST). */
  readonly from: string;
  /** `ok`, or `refused: <why>` / `failed: <why>`. */
  readonly result: string;
  /** Which door the call came through. */
  readonly via: 'grpc' | 'rest';
}

/**
 * Writes one log line per mutating call (submit, cancel, stop, savepoint, rescale, dispose):
 * who, what, which job, from where, and the result, marked `audit: true` so a log shipper
 * can route the lines to a store of their own.
 */
export class AuditLog {
  constructor(private readonly logger: Logger) {}

  record(entry: AuditEntry): void {
    this.logger.info(
      {
        audit: true,
        who: entry.principal?.name ?? 'unauthenticated',
        role: entry.principal?.role,
        action: entry.action,
        jobId: entry.jobId,
        from: entry.from,
        via: entry.via,
        result: entry.result,
      },
      `audit: ${entry.principal?.name ?? 'unauthenticated'} ${entry.action}${entry.jobId === undefined ? '' : ` ${entry.jobId}`}: ${entry.result}`,
    );
  }
}
