import { METADATA_FILE, decodeCheckpointMetadata, describeError, isWeirError, type CheckpointMetadata, type Logger } from '@weir/common';
import { HaErrorCode, HaJobStatus, type CheckpointPointer, type EtcdHaServices, type JobRecord, type LeadershipTerm } from '@weir/ha';
import type { StorageOpener } from '@weir/storage';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint-store.ts';
import type { LeaderSession } from '../leader-session.ts';
import { cleanUpJob } from './job-cleanup.ts';

export interface RecoveryDeps {
  readonly services: EtcdHaServices;
  readonly term: LeadershipTerm;
  readonly session: LeaderSession;
  readonly openStorage: StorageOpener;
  readonly logger: Logger;
}

/**
 * Takes over the cluster's jobs from etcd when this JobManager becomes leader: jobs that
 * ended are listed as they ended; a job whose cancel was asked for is recorded CANCELED, not
 * run again; every other job is submitted again through the same path as SubmitJob, with its
 * ID, and restores its latest retained checkpoint. A job that cannot be submitted again
 * (its bundle no longer builds) is recorded FAILED with the cause. etcd failing throws, and
 * the leadership is given up to be won again.
 */
export async function recoverJobs(deps: RecoveryDeps): Promise<void> {
  const { services, term, session, logger } = deps;
  const { records, problems } = await services.jobs.list();
  for (const problem of problems) logger.warn(`skipping a job record that does not parse: ${problem}`);
  for (const record of records) {
    if (record.status === HaJobStatus.RUNNING) {
      await recoverJob(deps, record);
      continue;
    }
    if (record.status === HaJobStatus.CANCELLING) {
      const canceled = { ...record, status: HaJobStatus.CANCELED, endedAtMs: Date.now(), dirty: true };
      await services.jobs.put(term, canceled);
      logger.info({ jobId: record.jobId }, 'not recovering a job whose cancel was asked for: it is CANCELED');
      session.dispatcher.archive(summary(canceled));
      cleanUpInBackground(deps, canceled);
      continue;
    }
    session.dispatcher.archive(summary(record));
    if (record.dirty) cleanUpInBackground(deps, record);
  }
  logger.info({ jobs: records.length, running: records.filter((r) => r.status === HaJobStatus.RUNNING).length }, 'jobs recovered from etcd');
}

async function recoverJob(deps: RecoveryDeps, record: JobRecord): Promise<void> {
  const { services, term, session, logger } = deps;
  const log = logger.child({ jobId: record.jobId });
  const checkpoints = await services.checkpoints(record.jobId, term, log).recover();
  for (const problem of checkpoints.problems) log.warn(`skipping a checkpoint pointer: ${problem}`);
  try {
    const { submission, bundle } = await services.jobs.submission(record.jobId);
    const completed = await Promise.all(checkpoints.pointers.map((pointer) => readCheckpoint(pointer, record, deps)));
    await session.submitter.recover(
      {
        jobId: record.jobId,
        bundle: Buffer.from(bundle),
        entryName: submission.entryName,
        args: submission.args,
        parallelism: submission.parallelism,
        savepointPath: submission.savepointPath,
        allowNonRestoredState: submission.allowNonRestoredState,
        configuration: submission.configuration,
        submittedAtMs: submission.submittedAtMs,
        owner: submission.owner,
      },
      { checkpoints: completed },
    );
  } catch (err) {
    if (isEtcdFailure(err)) throw err;
    const cause = `a new JobManager leader (epoch ${term.epoch}) could not take the job over: ${describeError(err)}`;
    log.error({ err: describeError(err) }, cause);
    const failed = { ...record, status: HaJobStatus.FAILED, endedAtMs: Date.now(), failureCause: cause, dirty: true };
    await services.jobs.put(term, failed);
    session.dispatcher.archive(summary(failed));
    cleanUpInBackground(deps, failed);
  }
}

/**
 * A retained checkpoint as the coordinator keeps it. Its `_metadata` is read here for what the
 * coordinator needs before a restore (shared files, stop-with-savepoint directories); one that
 * cannot be read gets a placeholder, and the restore, which reads it again, skips it or fails
 * the job with NO_USABLE_CHECKPOINT.
 */
async function readCheckpoint(pointer: CheckpointPointer, record: JobRecord, deps: RecoveryDeps): Promise<CompletedCheckpoint> {
  const { checkpointId, path, timestamp } = pointer;
  let metadata: CheckpointMetadata | string;
  const storage = deps.openStorage(path);
  try {
    metadata = decodeCheckpointMetadata(await storage.read(METADATA_FILE), { jobId: record.jobId, checkpointId });
  } catch (err) {
    metadata = describeError(err);
  } finally {
    storage.close();
  }
  if (typeof metadata === 'string') {
    deps.logger.warn({ jobId: record.jobId, checkpointId, path }, `cannot read the _metadata of retained checkpoint ${checkpointId} now: ${metadata}`);
    metadata = { version: 1, kind: 'checkpoint', jobId: record.jobId, jobName: record.jobName, checkpointId, timestamp, operators: [] };
  }
  return { checkpointId, timestamp, metadata, externalPath: path };
}

/** A job that ended under an earlier leader and was not cleaned up: the clean-up must not hold up the recovery of running jobs. */
function cleanUpInBackground(deps: RecoveryDeps, record: JobRecord): void {
  cleanUpJob(deps.services, deps.term, record, deps.logger).catch((err: unknown) =>
    deps.logger.warn({ jobId: record.jobId, err: describeError(err) }, 'leaving the clean-up of the job to the next leader'),
  );
}

function summary(record: JobRecord) {
  return { jobId: record.jobId, name: record.jobName, status: record.status, startTimeMs: record.submittedAtMs, endTimeMs: record.endedAtMs };
}

function isEtcdFailure(err: unknown): boolean {
  return isWeirError(err, HaErrorCode.HA_STORE_UNAVAILABLE) || isWeirError(err, HaErrorCode.LEADERSHIP_LOST);
}
