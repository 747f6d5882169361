import { WeirError } from '@weir/common';
import { HaErrorCode } from '@weir/ha';
import { SecurityErrorCode } from '@weir/security';
import { JobManagerErrorCode } from '../errors.ts';

/** Codes only the REST API answers with; its other errors carry the JobManager's codes (JOB_NOT_FOUND, JOB_NOT_RUNNING, …). */
export const RestErrorCode = {
  /** No REST resource at this path. */
  NOT_FOUND: 'NOT_FOUND',
  /** The path exists, the method does not (the answer's Allow header lists those that do). */
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  /** The request's body, query or path parameters are not what the endpoint takes. */
  BAD_REQUEST: 'BAD_REQUEST',
  /** No TaskManager with this ID is registered. */
  TASK_MANAGER_NOT_FOUND: 'TASK_MANAGER_NOT_FOUND',
  /** The job has no vertex with this ID. */
  JOB_VERTEX_NOT_FOUND: 'JOB_VERTEX_NOT_FOUND',
  /** The job's vertex has no subtask with this index. */
  SUBTASK_NOT_FOUND: 'SUBTASK_NOT_FOUND',
  /** No savepoint, stop or checkpoint was triggered with this request ID for the job. */
  TRIGGER_NOT_FOUND: 'TRIGGER_NOT_FOUND',
  /** A standby forwarded the request to the leader's REST API, which did not answer (it may have just failed). */
  LEADER_UNREACHABLE: 'LEADER_UNREACHABLE',
  /** The request's body is larger than rest.server.max-content-length; answered 413 from its Content-Length, unread. */
  REQUEST_TOO_LARGE: 'REQUEST_TOO_LARGE',
} as const;

/** What every failed request answers: Flink's `{"errors": [...]}` plus the error code. */
export interface ErrorBody {
  readonly errors: readonly string[];
  readonly code: string;
}

export function errorBody(err: WeirError): ErrorBody {
  return { errors: [err.message], code: err.code };
}

const CONFLICTS: ReadonlySet<string> = new Set([
  JobManagerErrorCode.JOB_NOT_RUNNING,
  JobManagerErrorCode.SAVEPOINT_IN_PROGRESS,
  JobManagerErrorCode.SAVEPOINT_NOT_SUPPORTED,
  JobManagerErrorCode.SAVEPOINT_DIR_MISSING,
  JobManagerErrorCode.CHECKPOINTING_NOT_ENABLED,
]);

/** A standby that knows no leader (HA's NO_LEADER: an election is under way) or cannot reach it: try again shortly. */
const UNAVAILABLE: ReadonlySet<string> = new Set([HaErrorCode.NO_LEADER, RestErrorCode.LEADER_UNREACHABLE]);

/** The HTTP status of an error code: 404 for what is not there, 400 for a bad request, 403 for a path outside the allowed directories, 409 for a job that cannot do it now, 503 while no leader answers, 500 for the unexpected. */
export function httpStatusOf(code: string): number {
  if (code.endsWith('NOT_FOUND')) return 404;
  if (code === JobManagerErrorCode.PATH_NOT_ALLOWED) return 403;
  if (code === JobManagerErrorCode.RATE_LIMITED) return 429;
  if (code === RestErrorCode.REQUEST_TOO_LARGE) return 413;
  if (UNAVAILABLE.has(code)) return 503;
  if (code === RestErrorCode.METHOD_NOT_ALLOWED) return 405;
  if (code === SecurityErrorCode.UNAUTHENTICATED) return 401;
  if (code === SecurityErrorCode.PERMISSION_DENIED) return 403;
  if (code === RestErrorCode.BAD_REQUEST || code.startsWith('INVALID_')) return 400;
  return CONFLICTS.has(code) ? 409 : 500;
}

export function badRequest(message: string): WeirError {
  return new WeirError(RestErrorCode.BAD_REQUEST, message);
}
