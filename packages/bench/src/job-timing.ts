import type { JobServiceClient, JobStatusUpdate__Output } from '@weir/rpc';

/**
 * Milliseconds from the job's first RUNNING (when `onRunning` is called) to FINISHED, as the
 * JobManager's WatchJob stream reports them; throws if the job ends otherwise. The stream, not
 * polling: GetJob every 20 ms took the JobManager some 0.7 s of CPU during a 10M-record shuffle
 * (a few percent of a 2-core machine the job under measurement runs on), and put up to 20 ms
 * on each end.
 */
export async function timeRunningToFinished(client: JobServiceClient, jobId: string, timeoutMs = 600_000, onRunning?: () => void): Promise<number> {
  const stream = client.watchJob({ jobId }, { deadline: Date.now() + timeoutMs });
  let runningSince: number | undefined;
  try {
    for await (const update of stream as AsyncIterable<JobStatusUpdate__Output>) {
      if (update.status === 'RUNNING' && runningSince === undefined) {
        runningSince = performance.now();
        onRunning?.();
      }
      if (update.status === 'FINISHED') return performance.now() - (runningSince ?? performance.now());
      if (update.status === 'FAILED' || update.status === 'CANCELED') throw new Error(`benchmark job ${update.status}: ${update.failureCause}`);
    }
  } finally {
    stream.cancel();
  }
  throw new Error(`the JobManager ended its status stream of job ${jobId} before the job finished`);
}
