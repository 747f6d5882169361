import type { CollectedRow } from '@weir/sql';
import type { FetchedResults } from '../client/job-client.ts';
import type { ClientSettings } from './client-settings.ts';
import { resultView, type Screen } from './result-view.ts';

/** What showing a query's result needs of the cluster. */
export interface QueryCluster {
  fetch(jobId: string): Promise<FetchedResults>;
  /** Cancels the job and resolves with its final status once it ended. */
  cancel(jobId: string): Promise<string>;
}

/**
 * Shows the result of the query job `jobId` until the job ends or `interrupt` fires (Ctrl-C),
 * which cancels the job (Flink's client cancels the query's job when its result view closes).
 * Fetches long-poll, so new rows show within the sink's flush interval plus a round trip.
 * Returns the job's final status.
 */
export async function runQuery(
  jobId: string,
  columns: readonly string[],
  settings: ClientSettings,
  cluster: QueryCluster,
  screen: Screen,
  interrupt: AbortSignal,
): Promise<string> {
  const view = resultView(jobId, columns, settings, screen);
  const interrupted = new Promise<undefined>((resolve) => {
    if (interrupt.aborted) resolve(undefined);
    else interrupt.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  for (;;) {
    const fetched = await Promise.race([cluster.fetch(jobId), interrupted]);
    if (fetched === undefined) {
      const status = await cluster.cancel(jobId);
      view.end(status);
      return status;
    }
    view.add(fetched.rows as CollectedRow[], fetched.jobStatus);
    if (fetched.endOfResults) {
      view.end(fetched.jobStatus);
      return fetched.jobStatus;
    }
  }
}
