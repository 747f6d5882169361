import { describeError, type Logger } from '@weir/common';
import type { EtcdHaServices, JobRecord, LeadershipTerm } from '@weir/ha';

const RETRY_MS = 1_000;

/**
 * Flink's JobResultStore clean-up of a globally terminal job whose record is dirty: its
 * checkpoint pointers in etcd, its submission and the bundles no job refers to any more in
 * storageDir, then the record marked clean (kept: `weir list` and REST show the job). Each step
 * is idempotent and retried while this JobManager leads; a leader that loses its term midway
 * leaves the record dirty, and the next leader does it all again.
 */
export async function cleanUpJob(services: EtcdHaServices, term: LeadershipTerm, record: JobRecord, logger: Logger): Promise<void> {
  const log = logger.child({ jobId: record.jobId });
  await retrying(term, log, 'remove the checkpoint pointers', () => services.checkpoints(record.jobId, term, log).removeAll());
  let bundles: string[] = [];
  await retrying(term, log, 'remove the submission from storageDir', async () => {
    bundles = await services.jobs.removeJobData(term, record.jobId);
  });
  await retrying(term, log, 'mark the job result clean', () => services.jobs.put(term, { ...record, dirty: false }));
  log.info({ removedBundles: bundles }, 'removed the HA data of the job that ended');
}

/** Runs `write` until it succeeds, every second while this JobManager leads; throws once it no longer does. */
export async function retrying(term: LeadershipTerm, logger: Logger, what: string, write: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      await write();
      return;
    } catch (err) {
      if (!term.valid) throw err;
      logger.warn({ err: describeError(err), retryInMs: RETRY_MS }, `could not ${what}; retrying`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}
