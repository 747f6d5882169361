import * as api from '@weir/api';
import { loadJobBundle, type JobMain } from '@weir/common';
import * as connectors from '@weir/connectors';
import { planJob } from './plan-job.ts';
import type { WorkerRequests, WorkerSetup } from './protocol.ts';

/** One async function per request kind; the worker answers each request with its kind's handler. */
export type WorkerHandlers = { readonly [K in keyof WorkerRequests]: (payload: WorkerRequests[K]['request']) => Promise<WorkerRequests[K]['response']> };

/**
 * The handlers of a job's worker. The bundle is evaluated once, by the first request that
 * needs it, so an error in it is that request's answer.
 */
export function workerHandlers(setup: WorkerSetup): WorkerHandlers {
  let main: JobMain<api.StreamExecutionEnvironment> | undefined;
  const loadMain = (): JobMain<api.StreamExecutionEnvironment> =>
    (main ??= loadJobBundle<api.StreamExecutionEnvironment>(setup.code, setup.entryName, { '@weir/api': api, '@weir/connectors': connectors }, { systemExit: setup.systemExit }));
  return {
    plan: (request) => planJob(loadMain, setup.entryName, request),
  };
}
