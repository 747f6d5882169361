import { getJob } from '@weir/integration-tests';
import type { JobServiceClient } from '@weir/rpc';

/** Milliseconds from the job's first RUNNING to FINISHED, polled every 20 ms; throws if it ends otherwise. */
export async function timeRunningToFinished(client: JobServiceClient, jobId: string, timeoutMs = 600_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let runningSince: number | undefined;
  for (;;) {
    const details = await getJob(client, jobId);
    const status = details.summary!.status;
    if (status === 'RUNNING' && runningSince === undefined) runningSince = performance.now();
    if (status === 'FINISHED') return performance.now() - (runningSince ?? performance.now());
    if (status === 'FAILED' || status === 'CANCELED') throw new Error(`benchmark job ${status}: ${details.failureCause}`);
    if (Date.now() > deadline) throw new Error(`benchmark job still ${status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
