import { WeirError, encodeSourceEvent } from '@weir/common';
import {
  bindServer,
  createServer,
  services,
  toServiceError,
  type ClusterOverview,
  type JobDetails,
  type JobServiceHandlers,
  type JobStatusUpdate,
  type JobSummary,
  type ListCheckpointsResponse,
  type SubmitJobRequest__Output,
  type TriggerCheckpointRequest__Output,
  type TriggerSavepointRequest__Output,
} from '@weir/rpc';

/** Codes the fake answers savepoint requests with: the JobManager's (JobManagerErrorCode), which the CLI passes through unchanged. */
export const FakeSavepointErrorCode = {
  /** TriggerSavepoint with no target directory while the fake has no state.savepoints.dir. */
  SAVEPOINT_DIR_MISSING: 'SAVEPOINT_DIR_MISSING',
  /** DisposeSavepoint of a path that is not one of the fake's savepoints. */
  NOT_A_SAVEPOINT: 'NOT_A_SAVEPOINT',
} as const;

/** What the fake JobManager answers; unknown job IDs get JOB_NOT_FOUND like the real one. */
export interface FakeJobs {
  readonly jobs: JobSummary[];
  readonly details: Record<string, JobDetails>;
  /** Status updates WatchJob streams, per job, before ending the stream. */
  readonly updates: Record<string, JobStatusUpdate[]>;
  /** Submissions received. */
  readonly submitted: SubmitJobRequest__Output[];
  /** Job ID SubmitJob answers with, or the error it rejects with. */
  submitResult: string | WeirError;
  readonly cancelled: string[];
  /** Status CancelJob answers with. */
  cancelStatus: string;
  /** What ListCheckpoints answers, per job. */
  readonly checkpoints: Record<string, ListCheckpointsResponse>;
  /** The JobManager's state.savepoints.dir: where a savepoint without a target directory goes; '' for none. */
  savepointsDir: string;
  /** TriggerSavepoint requests received. */
  readonly savepointRequests: TriggerSavepointRequest__Output[];
  /** TriggerCheckpoint requests received; each answers the next checkpoint ID and `<job>/chk-<id>`. */
  readonly checkpointRequests: TriggerCheckpointRequest__Output[];
  /** When set, TriggerSavepoint answers only once it resolves, as a slow savepoint would. */
  savepointGate: Promise<void> | undefined;
  /** Paths of the savepoints that exist: those TriggerSavepoint wrote, and any a test adds; DisposeSavepoint removes them. */
  readonly savepoints: string[];
  /** Checkpoint ID the next savepoint gets. */
  nextCheckpointId: number;
  /** Whether a savepoint with terminate CANCEL or STOP appends CANCELED or FINISHED to the job's WatchJob updates, as the JobManager ends the job. */
  endsJobs: boolean;
  /** What GetClusterOverview answers. */
  overview: ClusterOverview;
  /** When set, WatchJob keeps the stream open after the updates until it resolves, as a job waiting for slots would. */
  watchGate: Promise<void> | undefined;
  /** FetchResults' answers per job, a batch of rows each; once they run out, the job's status and end of results. */
  readonly results: Record<string, unknown[][]>;
}

export interface FakeJobService extends FakeJobs {
  readonly address: string;
  close(): Promise<void>;
}

/** A JobService on 127.0.0.1 that serves canned data, for testing the CLI without a JobManager. */
export async function startFakeJobService(): Promise<FakeJobService> {
  const state: FakeJobs = {
    jobs: [],
    details: {},
    updates: {},
    submitted: [],
    submitResult: 'f'.repeat(32),
    cancelled: [],
    cancelStatus: 'CANCELLING',
    checkpoints: {},
    savepointsDir: '',
    savepointRequests: [],
    checkpointRequests: [],
    savepointGate: undefined,
    savepoints: [],
    nextCheckpointId: 1,
    endsJobs: true,
    overview: { taskManagers: 1, slotsTotal: 1, slotsFree: 1 },
    watchGate: undefined,
    results: {},
  };
  const notFound = (jobId: string) => toServiceError(new WeirError('JOB_NOT_FOUND', `no job with ID ${jobId}; \`weir list\` shows the jobs`));
  const server = createServer(64 * 1024 ** 2);
  const handlers: JobServiceHandlers = {
    SubmitJob(call, callback) {
      state.submitted.push(call.request);
      if (state.submitResult instanceof WeirError) callback(toServiceError(state.submitResult));
      else callback(null, { jobId: state.submitResult, jobName: call.request.entryName });
    },
    TriggerSavepoint(call, callback) {
      const request = call.request;
      state.savepointRequests.push(request);
      void (state.savepointGate ?? Promise.resolve()).then(() => {
        if (state.details[request.jobId] === undefined) return callback(notFound(request.jobId));
        const dir = request.targetDirectory || state.savepointsDir;
        if (dir === '') {
          return callback(
            toServiceError(
              new WeirError(
                FakeSavepointErrorCode.SAVEPOINT_DIR_MISSING,
                'no savepoint directory: give one with the command (`weir savepoint <jobId> <dir>`, `weir stop --savepointPath <dir>`, `weir cancel -s <dir>`) or set state.savepoints.dir in the configuration',
              ),
            ),
          );
        }
        const checkpointId = state.nextCheckpointId++;
        const savepointPath = `${dir}/savepoint-${request.jobId.slice(0, 6)}-${checkpointId.toString(16).padStart(8, '0')}`;
        state.savepoints.push(savepointPath);
        // As on the JobManager, a terminating savepoint ends the job after it completes.
        const end = { CANCEL: 'CANCELED', STOP: 'FINISHED' }[request.terminate];
        if (end !== undefined && state.endsJobs) (state.updates[request.jobId] ??= []).push({ jobId: request.jobId, status: end });
        callback(null, { savepointPath, checkpointId });
      });
    },
    TriggerCheckpoint(call, callback) {
      state.checkpointRequests.push(call.request);
      if (state.details[call.request.jobId] === undefined) return callback(notFound(call.request.jobId));
      const checkpointId = state.nextCheckpointId++;
      callback(null, { checkpointId, checkpointPath: `file:///checkpoints/${call.request.jobId}/chk-${checkpointId}` });
    },
    DisposeSavepoint(call, callback) {
      const at = state.savepoints.indexOf(call.request.savepointPath);
      if (at < 0) {
        return callback(
          toServiceError(new WeirError(FakeSavepointErrorCode.NOT_A_SAVEPOINT, `${call.request.savepointPath} is not a savepoint: it holds no _metadata; nothing was deleted`)),
        );
      }
      state.savepoints.splice(at, 1);
      callback(null, {});
    },
    FetchResults(call, callback) {
      const batches = state.results[call.request.jobId];
      if (batches === undefined) return callback(notFound(call.request.jobId));
      const rows = batches.shift();
      const status = state.details[call.request.jobId]?.summary?.status ?? 'RUNNING';
      callback(null, { rows: encodeSourceEvent({ kind: 'collect-rows', rows: rows ?? [] }), jobStatus: rows === undefined ? 'FINISHED' : status, endOfResults: rows === undefined });
    },
    ListJobs(_call, callback) {
      callback(null, { jobs: state.jobs });
    },
    GetJob(call, callback) {
      const details = state.details[call.request.jobId];
      if (details === undefined) callback(notFound(call.request.jobId));
      else callback(null, details);
    },
    CancelJob(call, callback) {
      if (state.details[call.request.jobId] === undefined) return callback(notFound(call.request.jobId));
      state.cancelled.push(call.request.jobId);
      callback(null, { status: state.cancelStatus });
    },
    ListCheckpoints(call, callback) {
      const checkpoints = state.checkpoints[call.request.jobId];
      if (checkpoints === undefined) callback(notFound(call.request.jobId));
      else callback(null, checkpoints);
    },
    WatchJob(call) {
      const updates = state.updates[call.request.jobId];
      if (updates === undefined) {
        call.emit('error', notFound(call.request.jobId));
        return;
      }
      for (const update of updates) call.write(update);
      void (state.watchGate ?? Promise.resolve()).then(() => call.end());
    },
    GetClusterOverview(_call, callback) {
      callback(null, state.overview);
    },
  };
  server.addService(services.JobService, handlers);
  const port = await bindServer(server, '127.0.0.1', 0);
  return Object.assign(state, {
    address: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  });
}
