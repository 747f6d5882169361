import { WeirError } from '@weir/common';
import {
  bindServer,
  createServer,
  services,
  toServiceError,
  type JobDetails,
  type JobServiceHandlers,
  type JobStatusUpdate,
  type JobSummary,
  type ListCheckpointsResponse,
  type SubmitJobRequest__Output,
} from '@weir/rpc';

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
}

export interface FakeJobService extends FakeJobs {
  readonly address: string;
  close(): Promise<void>;
}

/** A JobService on 127.0.0.1 that serves canned data, for testing the CLI without a JobManager. */
export async function startFakeJobService(): Promise<FakeJobService> {
  const state: FakeJobs = { jobs: [], details: {}, updates: {}, submitted: [], submitResult: 'f'.repeat(32), cancelled: [], cancelStatus: 'CANCELLING', checkpoints: {} };
  const notFound = (jobId: string) => toServiceError(new WeirError('JOB_NOT_FOUND', `no job with ID ${jobId}; \`weir list\` shows the jobs`));
  const server = createServer();
  const handlers: JobServiceHandlers = {
    SubmitJob(call, callback) {
      state.submitted.push(call.request);
      if (state.submitResult instanceof WeirError) callback(toServiceError(state.submitResult));
      else callback(null, { jobId: state.submitResult, jobName: call.request.entryName });
    },
    TriggerSavepoint(_call, callback) {
      callback({ code: 12, details: 'savepoints are not served yet' });
    },
    DisposeSavepoint(_call, callback) {
      callback({ code: 12, details: 'savepoints are not served yet' });
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
      call.end();
    },
  };
  server.addService(services.JobService, handlers);
  const port = await bindServer(server, '127.0.0.1', 0);
  return Object.assign(state, {
    address: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  });
}
