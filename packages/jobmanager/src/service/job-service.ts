import { isGloballyTerminal, type Logger } from '@weir/common';
import { toServiceError, type JobRequest__Output, type JobServiceHandlers, type JobStatusUpdate, type grpc } from '@weir/rpc';
import type { Dispatcher } from '../dispatcher.ts';
import type { JobMaster } from '../job/job-master.ts';
import type { JobSubmitter } from '../submit/job-submitter.ts';
import { toListCheckpointsResponse } from './checkpoint-views.ts';
import { toJobDetails, toJobStatusUpdate, toJobSummary } from './job-views.ts';

/** The JobService the CLI calls: submit, list, get, cancel, watch, list checkpoints. */
export function jobServiceHandlers(dispatcher: Dispatcher, submitter: JobSubmitter, logger: Logger): JobServiceHandlers {
  return {
    SubmitJob(call, callback) {
      submitter.submit(call.request).then(
        (response) => callback(null, response),
        (err: unknown) => {
          logger.warn({ err, entryName: call.request.entryName }, 'job submission rejected');
          callback(toServiceError(err));
        },
      );
    },

    TriggerSavepoint(_call, callback) {
      callback({ code: 12, details: 'savepoints are not served yet' });
    },
    DisposeSavepoint(_call, callback) {
      callback({ code: 12, details: 'savepoints are not served yet' });
    },
    ListJobs(_call, callback) {
      callback(null, { jobs: dispatcher.list().map(toJobSummary) });
    },

    GetJob(call, callback) {
      try {
        callback(null, toJobDetails(dispatcher.get(call.request.jobId)));
      } catch (err) {
        callback(toServiceError(err));
      }
    },

    CancelJob(call, callback) {
      try {
        callback(null, { status: dispatcher.cancel(call.request.jobId) });
      } catch (err) {
        callback(toServiceError(err));
      }
    },

    ListCheckpoints(call, callback) {
      try {
        callback(null, toListCheckpointsResponse(dispatcher.get(call.request.jobId)));
      } catch (err) {
        callback(toServiceError(err));
      }
    },

    WatchJob(call) {
      try {
        watch(call, dispatcher.get(call.request.jobId));
      } catch (err) {
        call.emit('error', toServiceError(err));
      }
    },
  };
}

/** Writes the job's status now and at every change; ends the stream once the job is terminal. */
function watch(call: grpc.ServerWritableStream<JobRequest__Output, JobStatusUpdate>, job: JobMaster): void {
  call.write(toJobStatusUpdate(job));
  if (isGloballyTerminal(job.status)) {
    call.end();
    return;
  }
  const unsubscribe = job.onStatusChange((status) => {
    call.write(toJobStatusUpdate(job));
    if (isGloballyTerminal(status)) {
      unsubscribe();
      call.end();
    }
  });
  call.on('cancelled', unsubscribe);
}
