import { isGloballyTerminal, type JobStatus } from '@weir/common';
import type { JobClient } from '../client/job-client.ts';
import type { QueryCluster } from './run-query.ts';

/** A query's job through the JobService: its rows fetched, and a cancel that waits until the job ended. */
export function queryCluster(client: JobClient): QueryCluster {
  return {
    fetch: (jobId) => client.fetchResults(jobId),
    async cancel(jobId) {
      const status = await client.cancel(jobId);
      if (isGloballyTerminal(status as JobStatus)) return status;
      let last = status;
      for await (const update of client.watch(jobId)) {
        last = update.status;
        if (isGloballyTerminal(update.status as JobStatus)) break;
      }
      return last;
    },
  };
}
