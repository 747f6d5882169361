import type { JobClient } from '../client/job-client.ts';
import { formatBytes } from '../format/checkpoints.ts';
import type { ProgressDetail } from './progress.ts';

/**
 * While a deployed attempt's subtasks initialize (the job is CREATED or RESTARTING until all
 * run): "restoring state of checkpoint 12 (1.2 GiB): 4/6 subtasks running"; otherwise the
 * checkpoint detail.
 */
export function jobDetail(client: JobClient, jobId: string): ProgressDetail {
  const checkpoint = checkpointDetail(client, jobId);
  return async () => {
    const details = await client.get(jobId);
    const status = details.summary?.status;
    const subtasks = details.vertices.flatMap((v) => v.subtasks);
    if ((status !== 'CREATED' && status !== 'RESTARTING') || subtasks.length === 0) return checkpoint();
    const running = subtasks.filter((s) => s.state === 'RUNNING' || s.state === 'FINISHED').length;
    const { restoredFrom, restoredBytes } = await client.checkpoints(jobId);
    const what = restoredFrom === 0 ? 'starting' : `restoring state of checkpoint ${restoredFrom} (${formatBytes(restoredBytes)})`;
    return `${what}: ${running}/${subtasks.length} subtasks running`;
  };
}

/**
 * The newest checkpoint in progress (of `kind` if given) with its acknowledgements, else the
 * latest completed one: "checkpoint 7: 3/4 acks", "savepoint 8: 1/4 acks", "checkpoint 6 completed".
 */
export function checkpointDetail(client: JobClient, jobId: string, kind?: 'SAVEPOINT'): ProgressDetail {
  return async () => {
    const { checkpoints } = await client.checkpoints(jobId);
    const inProgress = checkpoints.find((c) => c.status === 'IN_PROGRESS' && (kind === undefined || c.kind === kind));
    const name = (c: { kind: string; checkpointId: number | string }): string => `${c.kind === 'SAVEPOINT' ? 'savepoint' : 'checkpoint'} ${String(c.checkpointId)}`;
    if (inProgress !== undefined) return `${name(inProgress)}: ${inProgress.acknowledged}/${inProgress.totalTasks} acks`;
    if (kind !== undefined) return undefined;
    const completed = checkpoints.find((c) => c.status === 'COMPLETED');
    return completed === undefined ? undefined : `${name(completed)} completed`;
  };
}

/** The job's status: "job is RUNNING". */
export function statusDetail(client: JobClient, jobId: string): ProgressDetail {
  return async () => `job is ${(await client.get(jobId)).summary?.status ?? 'unknown'}`;
}
