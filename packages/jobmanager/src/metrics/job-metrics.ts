import { JobStatus, isGloballyTerminal } from '@weir/common';
import { CheckpointStatus } from '../checkpoint/checkpoint-history.ts';
import type { JobMaster } from '../job/job-master.ts';

/** What each job metric means (Flink's JobManager job scope): the help text of its Prometheus series. */
export const JOB_METRIC_HELP = {
  uptime: 'Milliseconds the job has been RUNNING without interruption; 0 while it is not running.',
  downtime: 'Milliseconds since the job went from RUNNING to failing or restarting; 0 while it runs.',
  numRestarts: 'Restarts since the job was submitted.',
  lastCheckpointDuration: 'Milliseconds the last completed checkpoint took.',
  lastCheckpointSize: 'Bytes the last completed checkpoint wrote (its checkpointed size: an incremental one leaves out what earlier ones uploaded).',
  lastCheckpointFullSize: 'Full size of the last completed checkpoint: every byte it refers to, shared files of incremental checkpoints included.',
  lastCheckpointRestoreTimestamp: 'When the job last restored a checkpoint or savepoint (ms since the epoch); -1 if never.',
  numberOfCompletedCheckpoints: 'Checkpoints completed.',
  numberOfFailedCheckpoints: 'Checkpoints that failed.',
  numberOfInProgressCheckpoints: 'Checkpoints in progress.',
  totalNumberOfCheckpoints: 'Checkpoints triggered: completed, failed and in progress.',
} as const;

export type JobMetricName = keyof typeof JOB_METRIC_HELP;

/** A job's metrics now, with Flink's names and meanings. */
export function jobMetrics(job: JobMaster, now: number): Record<JobMetricName, number> {
  const status = job.status;
  const entered = job.statusTimestamps();
  const runningSince = entered[JobStatus.RUNNING] ?? 0;
  const troubleSince = [entered[JobStatus.FAILING], entered[JobStatus.RESTARTING]].filter((t): t is number => t !== undefined && t >= runningSince);
  const inTrouble = status === JobStatus.FAILING || status === JobStatus.RESTARTING;
  const view = job.checkpoints();
  const lastCompleted = view.checkpoints.find((c) => c.status === CheckpointStatus.COMPLETED && c.kind === 'CHECKPOINT');
  const inProgress = view.checkpoints.filter((c) => c.status === CheckpointStatus.IN_PROGRESS).length;
  return {
    uptime: status === JobStatus.RUNNING ? now - runningSince : 0,
    downtime: inTrouble && !isGloballyTerminal(status) && troubleSince.length > 0 ? now - Math.min(...troubleSince) : 0,
    numRestarts: job.attempt,
    lastCheckpointDuration: lastCompleted?.durationMs ?? 0,
    lastCheckpointSize: lastCompleted?.checkpointedBytes ?? 0,
    lastCheckpointFullSize: lastCompleted?.stateBytes ?? 0,
    lastCheckpointRestoreTimestamp: view.restored?.restoreTimestampMs ?? -1,
    numberOfCompletedCheckpoints: view.completed,
    numberOfFailedCheckpoints: view.failed,
    numberOfInProgressCheckpoints: inProgress,
    totalNumberOfCheckpoints: view.completed + view.failed + inProgress,
  };
}
