import { WeirError, type Logger, type UserSystemExitMode } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';
import { JobWorker } from '../user-code/job-worker.ts';
import { WorkerProcessPool } from '../user-code/worker-process.ts';
import type { JobPlanner, JobToPlan, PlannedJob } from './job-planner.ts';

export interface WorkerJobPlannerOptions {
  /** jobmanager.job-main.timeout. */
  readonly mainTimeoutMs: number;
  /** jobmanager.user-code.heap-size, in bytes. */
  readonly heapSizeBytes: number;
  /** jobmanager.user-code.read-paths: directories the job's code may read besides Weir's own code. */
  readonly readPaths: readonly string[];
  /** cluster.intercept-user-system-exit. */
  readonly systemExit: UserSystemExitMode;
  readonly logger: Logger;
}

/**
 * Plans each job in a worker process of its own (`JobWorker`), which then stays with the job:
 * a main that loops, exits, throws or runs out of memory fails the submission with a message
 * saying so, and the JobManager goes on serving. `warm` starts a spare process ahead, so a
 * submission need not wait for one to start; `close` ends the spare.
 */
export function workerJobPlanner(options: WorkerJobPlannerOptions): JobPlanner & { warm(): void; close(): void } {
  const pool = new WorkerProcessPool({ heapSizeBytes: options.heapSizeBytes, readPaths: options.readPaths, logger: options.logger });
  return {
    warm: () => pool.warm(),
    close: () => pool.close(),
    async plan(job: JobToPlan): Promise<PlannedJob> {
      const worker = new JobWorker({
        setup: { jobId: job.jobId, entryName: job.entryName, code: job.code, systemExit: options.systemExit },
        heapSizeBytes: options.heapSizeBytes,
        pool,
        logger: options.logger.child({ jobId: job.jobId }),
        enumeratorGraph: { args: job.args, defaults: job.defaults },
      });
      try {
        const plan = await worker.request('plan', { args: job.args, defaults: job.defaults }, { timeoutMs: options.mainTimeoutMs, what: "the job's main" });
        return { ...plan, userCode: worker };
      } catch (err) {
        await worker.close();
        throw planFailure(err, job.entryName);
      }
    },
  };
}

/** Errors of the job's own making already name the job; the worker's end or a timeout gets the job's name and what to do. */
function planFailure(err: unknown, entryName: string): unknown {
  if (!(err instanceof WeirError)) return err;
  if (err.code === JobManagerErrorCode.USER_CODE_TIMEOUT) {
    return new WeirError(
      err.code,
      `job ${entryName} could not be built: ${err.message} (jobmanager.job-main.timeout); a main defines sources, operators and sinks and returns: it must not wait for input or loop`,
      { cause: err },
    );
  }
  if (err.code === JobManagerErrorCode.USER_CODE_FAILED) return new WeirError(err.code, `job ${entryName} could not be built: ${err.message}`, { cause: err });
  return err;
}
