import type { JobEndStatus } from '@weir/api';
import type { UserSystemExitMode } from '@weir/common';
import type { JobDefaults } from '../job/job-spec.ts';
import type { HostCommand, HostEvent } from '../source/enumerator-host.ts';
import type { JobPlan } from '../submit/job-planner.ts';

/*
 * The messages between the JobManager and a job's worker process (see the README's "User code
 * on the JobManager"). The JobManager sends `setup` (the job), the worker says `ready`; the
 * JobManager sends requests, each with an ID; the worker answers each once, in any order.
 * Everything crosses by structured clone (IPC's `advanced` serialization), so payloads are plain data.
 */

/** Every request kind a job's worker serves: what the JobManager sends and what it gets back. */
export interface WorkerRequests {
  /** Run the job's main against a graph-building environment and chain the result into a JobGraph. */
  plan: { request: PlanRequest; response: JobPlan };
  /** A command for the job's split enumerators; what they do in reply comes as `event` messages. */
  enumerator: { request: EnumeratorRequest; response: void };
  /** The job ended for good: each split source's jobEnded runs; the answer is what failed, a line each. */
  jobEnded: { request: JobEndedRequest; response: readonly string[] };
}

export interface JobEndedRequest {
  readonly args: readonly string[];
  readonly defaults: JobDefaults;
  readonly status: JobEndStatus;
}

/** The graph the enumerators' sources come from (the plan's, rebuilt after the worker restarted) and the command. */
export interface EnumeratorRequest {
  readonly args: readonly string[];
  readonly defaults: JobDefaults;
  readonly command: HostCommand;
}

export type WorkerRequestKind = keyof WorkerRequests;

export interface PlanRequest {
  readonly args: readonly string[];
  readonly defaults: JobDefaults;
}

/** What a worker is given first (`setup`): the job's bundle and how to treat its code. */
export interface WorkerSetup {
  readonly jobId: string;
  readonly entryName: string;
  readonly code: string;
  readonly systemExit: UserSystemExitMode;
}

/** Everything the JobManager sends a worker: its job once, then requests. */
export type JobManagerMessage = { readonly type: 'setup'; readonly setup: WorkerSetup } | RequestMessage;

export interface RequestMessage {
  readonly type: 'request';
  readonly id: number;
  readonly kind: WorkerRequestKind;
  readonly payload: unknown;
}

/** An error as it crosses the process boundary: a WeirError keeps its code. */
export interface ErrorMessage {
  readonly code: string | undefined;
  readonly message: string;
}

export type ResponseMessage =
  | { readonly type: 'response'; readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly type: 'response'; readonly id: number; readonly ok: false; readonly error: ErrorMessage };

/**
 * Everything a worker sends: `ready` once it has its job (request time limits start then),
 * then responses, and the split enumerators' events (assignments, snapshots, failures) in the
 * order they happen; `fatal` with the stack of an error nothing caught, just before it exits.
 */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | ResponseMessage
  | { readonly type: 'event'; readonly event: HostEvent }
  | { readonly type: 'fatal'; readonly message: string };
