// The REST API's JSON, as far as the dashboard reads it (the JobManager's rest/views/ write it).
import type { WhoAmI } from './permissions.ts';
import { sessionToken, unauthorized } from './session.ts';

export interface Config {
  readonly 'refresh-interval': number;
  readonly 'weir-version': string;
}

export interface Overview {
  readonly taskmanagers: number;
  readonly 'slots-total': number;
  readonly 'slots-available': number;
  readonly 'jobs-running': number;
  readonly 'jobs-finished': number;
  readonly 'jobs-cancelled': number;
  readonly 'jobs-failed': number;
  /** The leading JobManager, which answered (a standby forwards REST requests to it). */
  readonly leader: { readonly address: string; readonly 'rest-url': string; readonly epoch: number | null };
}

export type TaskCounts = Readonly<Record<string, number>>;

export interface JobSummary {
  readonly jid: string;
  readonly name: string;
  readonly state: string;
  readonly 'start-time': number;
  readonly 'end-time': number;
  readonly duration: number;
  readonly tasks: TaskCounts;
}

export interface IoMetrics {
  readonly 'read-records': number;
  readonly 'write-records': number;
  readonly 'read-bytes': number;
  readonly 'write-bytes': number;
  readonly 'read-records-per-second': number;
  readonly 'write-records-per-second': number;
  readonly 'read-records-complete': boolean;
}

export interface BackPressure {
  readonly level: 'ok' | 'low' | 'high';
  readonly ratio: number;
  readonly 'busy-ratio': number;
  readonly 'idle-ratio': number;
}

export interface Vertex {
  readonly id: string;
  readonly name: string;
  readonly parallelism: number;
  readonly maxParallelism: number;
  readonly status: string;
  readonly tasks: TaskCounts;
  readonly metrics: IoMetrics;
  readonly backpressure: BackPressure;
  /** The lowest input watermark of its subtasks (ms); null before every subtask has one. */
  readonly watermark: number | null;
}

export interface PlanNode {
  readonly id: string;
  readonly description: string;
  readonly parallelism: number;
  readonly inputs: readonly { readonly num: number; readonly id: string; readonly ship_strategy: string }[];
}

export interface JobDetails {
  readonly jid: string;
  readonly name: string;
  readonly state: string;
  readonly isStoppable: boolean;
  readonly 'start-time': number;
  readonly 'end-time': number;
  readonly duration: number;
  readonly now: number;
  readonly attempt: number;
  readonly 'failure-cause': string | null;
  readonly timestamps: Readonly<Record<string, number>>;
  readonly vertices: readonly Vertex[];
  readonly plan: { readonly nodes: readonly PlanNode[] };
  /** Weir's own: who submitted it (`token:alice`); null when not known. Absent from older JobManagers. */
  readonly owner?: string | null;
}

export interface CheckpointEntry {
  readonly id: number;
  readonly status: string;
  readonly is_savepoint: boolean;
  readonly checkpoint_type: string;
  readonly trigger_timestamp: number;
  readonly end_to_end_duration: number;
  /** Full size: everything the checkpoint refers to, shared files of incremental checkpoints included. */
  readonly state_size: number;
  /** What this checkpoint wrote: an incremental one leaves out what earlier ones uploaded. */
  readonly checkpointed_size: number;
  readonly persisted_data: number;
  readonly alignment_duration: number;
  readonly sync_duration: number;
  readonly unaligned: boolean;
  readonly num_subtasks: number;
  readonly num_acknowledged_subtasks: number;
  readonly external_path: string | null;
  readonly failure_message: string | null;
}

export interface Checkpoints {
  readonly counts: { readonly restored: number; readonly total: number; readonly in_progress: number; readonly completed: number; readonly failed: number };
  readonly latest: {
    readonly completed: CheckpointEntry | null;
    readonly savepoint: CheckpointEntry | null;
    readonly failed: CheckpointEntry | null;
    readonly restored: { readonly id: number; readonly restore_timestamp: number; readonly is_savepoint: boolean; readonly external_path: string | null; readonly state_size: number } | null;
  };
  readonly history: readonly CheckpointEntry[];
  /** Weir's own: files of the checkpoint directory no checkpoint uses, as the last sweep counted them; null before one (absent from older JobManagers). */
  readonly left_behind?: { readonly files: number; readonly bytes: number; readonly counted_at: number } | null;
}

export interface ExceptionInfo {
  readonly exceptionName: string;
  readonly stacktrace: string;
  readonly timestamp: number;
  readonly taskName: string | null;
  readonly taskManagerId: string | null;
}

export interface Exceptions {
  readonly 'root-exception': string | null;
  readonly exceptionHistory: {
    readonly entries: readonly (ExceptionInfo & {
      readonly attempt: number;
      /** What the restart strategy decided; null while undecided. */
      readonly restarted: boolean | null;
      readonly restartDelay: number | null;
      readonly concurrentExceptions: readonly ExceptionInfo[];
    })[];
    readonly truncated: boolean;
  };
}

export interface TaskManager {
  readonly id: string;
  readonly dataAddress: string;
  readonly pid: number;
  readonly registeredAt: number;
  readonly timeSinceLastHeartbeat: number;
  readonly slotsNumber: number;
  readonly freeSlots: number;
  /** Null until the TaskManager's first metrics report. */
  readonly metrics: {
    readonly heapUsed: number;
    readonly heapMax: number;
    readonly rss: number;
    readonly garbageCollectors: readonly { readonly count: number; readonly time: number }[];
    readonly eventLoopDelayP99: number;
    readonly cpuUser: number;
    readonly cpuSystem: number;
  } | null;
}

export interface SavepointStatus {
  readonly status: { readonly id: 'IN_PROGRESS' | 'COMPLETED' };
  readonly operation?: { readonly location?: string; readonly 'failure-cause'?: { readonly code: string; readonly 'stack-trace': string } };
}

/** A failed request, with the REST API's error code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One API call, with the signed-in token as `Authorization: Bearer`. A 401 (no token, or one
 * the cluster does not know, revoked since sign-in say) sends the dashboard back to its login
 * page with the JobManager's message, unless `quiet` (the login page's own check).
 */
async function request<T>(method: string, path: string, body?: unknown, quiet = false): Promise<T> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const token = sessionToken();
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await response.json().catch(() => ({}))) as { errors?: string[]; code?: string };
  if (!response.ok) {
    const error = new ApiError(response.status, json.code ?? 'HTTP_ERROR', json.errors?.join('; ') ?? response.statusText);
    if (response.status === 401 && !quiet) unauthorized(error.message);
    throw error;
  }
  return json as T;
}

export const api = {
  whoami: (quiet = false) => request<WhoAmI>('GET', 'auth/whoami', undefined, quiet),
  config: () => request<Config>('GET', 'config'),
  overview: () => request<Overview>('GET', 'overview'),
  jobs: () => request<{ jobs: JobSummary[] }>('GET', 'jobs/overview'),
  job: (id: string) => request<JobDetails>('GET', `jobs/${id}`),
  checkpoints: (id: string) => request<Checkpoints>('GET', `jobs/${id}/checkpoints`),
  exceptions: (id: string) => request<Exceptions>('GET', `jobs/${id}/exceptions`),
  taskManagers: () => request<{ taskmanagers: TaskManager[] }>('GET', 'taskmanagers'),
  triggerSavepoint: (id: string) => request<{ 'request-id': string }>('POST', `jobs/${id}/savepoints`, {}),
  savepointStatus: (id: string, requestId: string) => request<SavepointStatus>('GET', `jobs/${id}/savepoints/${requestId}`),
  cancel: (id: string) => request<object>('PATCH', `jobs/${id}?mode=cancel`),
};
