import { isGloballyTerminal, parseJobId, quoteInput, type Logger } from '@weir/common';
import { toServiceError, type JobRequest__Output, type JobServiceHandlers, type JobStatusUpdate, type grpc } from '@weir/rpc';
import type { Dispatcher } from '../dispatcher.ts';
import type { JobMaster } from '../job/job-master.ts';
import type { SavepointService } from '../savepoint/savepoint-service.ts';
import type { SlotPool } from '../scheduler/slot-pool.ts';
import type { JobSubmitter } from '../submit/job-submitter.ts';
import { isFullCheckpoint } from '../checkpoint/checkpoint-type.ts';
import { toListCheckpointsResponse } from './checkpoint-views.ts';
import { principalId } from '@weir/security';
import { callPrincipal } from '../security/job-owners.ts';
import { peerAddress, rateLimitKey, type ClientRateLimiter } from './client-rate-limiter.ts';
import { toJobDetails, toJobStatusUpdate } from './job-views.ts';
import { fetchResults } from '../collect/collect-results.ts';

/** The JobService the CLI calls: submit, list, get, cancel, watch, list and trigger checkpoints, savepoints, fetch a query's rows. */
export function jobServiceHandlers(
  dispatcher: Dispatcher,
  submitter: JobSubmitter,
  savepoints: SavepointService,
  slotPool: SlotPool,
  logger: Logger,
  rateLimiter: ClientRateLimiter,
): JobServiceHandlers {
  return {
    SubmitJob(call, callback) {
      Promise.resolve(call.request).then((request) => {
        const principal = callPrincipal(call);
        rateLimiter.take(rateLimitKey(principal, peerAddress(call.getPeer())), 'SubmitJob');
        // Anonymous callers (authentication off) own nothing: every one of them is an admin anyway.
        return submitter.submit(request, principal === undefined || principal.via === 'anonymous' ? '' : principalId(principal));
      }).then(
        (response) => callback(null, response),
        (err: unknown) => {
          logger.warn({ err, entryName: quoteInput(call.request.entryName) }, 'job submission rejected');
          callback(toServiceError(err));
        },
      );
    },

    TriggerSavepoint(call, callback) {
      Promise.resolve(call.request).then((request) => {
        rateLimiter.take(rateLimitKey(callPrincipal(call), peerAddress(call.getPeer())), 'TriggerSavepoint');
        return savepoints.trigger({ ...request, jobId: parseJobId(request.jobId) });
      }).then(
        (response) => callback(null, response),
        (err: unknown) => {
          logger.warn({ err, jobId: quoteInput(call.request.jobId) }, 'savepoint failed');
          callback(toServiceError(err));
        },
      );
    },

    TriggerCheckpoint(call, callback) {
      Promise.resolve(call.request).then((request) => {
        rateLimiter.take(rateLimitKey(callPrincipal(call), peerAddress(call.getPeer())), 'TriggerCheckpoint');
        return dispatcher.get(parseJobId(request.jobId)).triggerCheckpoint(isFullCheckpoint(request.checkpointType));
      }).then(
        (checkpoint) => callback(null, { checkpointId: checkpoint.checkpointId, checkpointPath: checkpoint.path }),
        (err: unknown) => {
          logger.warn({ err, jobId: quoteInput(call.request.jobId) }, 'on-demand checkpoint failed');
          callback(toServiceError(err));
        },
      );
    },

    DisposeSavepoint(call, callback) {
      Promise.resolve(call.request).then((request) => savepoints.dispose(request)).then(
        () => callback(null, {}),
        (err: unknown) => {
          logger.warn({ err, path: quoteInput(call.request.savepointPath, 4_096) }, 'savepoint disposal refused');
          callback(toServiceError(err));
        },
      );
    },


    GetClusterOverview(_call, callback) {
      const { taskManagers, total, free } = slotPool.stats();
      callback(null, { taskManagers, slotsTotal: total, slotsFree: free });
    },

    ListJobs(_call, callback) {
      callback(null, { jobs: dispatcher.summaries() });
    },

    GetJob(call, callback) {
      try {
        callback(null, toJobDetails(dispatcher.get(parseJobId(call.request.jobId))));
      } catch (err) {
        callback(toServiceError(err));
      }
    },

    CancelJob(call, callback) {
      try {
        callback(null, { status: dispatcher.cancel(parseJobId(call.request.jobId)) });
      } catch (err) {
        callback(toServiceError(err));
      }
    },

    FetchResults(call, callback) {
      Promise.resolve(call.request).then((request) => fetchResults(dispatcher.get(parseJobId(request.jobId)), request.maxRows)).then(
        (response) => callback(null, response),
        (err: unknown) => callback(toServiceError(err)),
      );
    },

    ListCheckpoints(call, callback) {
      try {
        callback(null, toListCheckpointsResponse(dispatcher.get(parseJobId(call.request.jobId))));
      } catch (err) {
        callback(toServiceError(err));
      }
    },

    WatchJob(call) {
      try {
        watch(call, dispatcher.get(parseJobId(call.request.jobId)));
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
