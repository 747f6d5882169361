import { isTerminalTaskState, type TaskStateSnapshot } from '@weir/common';
import type { Storage } from '@weir/storage';
import type { TaskRestore } from '../checkpoint/types.ts';
import { waitUntil, type RunningJob } from './harness.ts';

/**
 * The JobManager's part of checkpoints, for in-process jobs: trigger at the sources, wait for
 * every live task's acknowledgement (or a decline), notify.
 */
export async function checkpoint(job: RunningJob, checkpointId: number, timestamp = checkpointId * 1000): Promise<'acked' | 'declined'> {
  for (const d of job.deployed) if (d.isSource && !isTerminalTaskState(d.task.state)) d.task.triggerCheckpoint(checkpointId, timestamp);
  const outcome = (): 'acked' | 'declined' | undefined => {
    if (job.declines.some((d) => d.decline.checkpointId === checkpointId)) return 'declined';
    const acked = job.acks.get(checkpointId);
    const live = job.deployed.filter((d) => d.task.state !== 'FINISHED');
    return live.every((d) => acked?.has(d.task) === true) ? 'acked' : undefined;
  };
  await waitUntil(() => outcome() !== undefined);
  return outcome()!;
}

export function notifyComplete(job: RunningJob, checkpointId: number): void {
  for (const d of job.deployed) d.task.notifyCheckpointComplete(checkpointId);
}

export function notifyAborted(job: RunningJob, checkpointId: number): void {
  for (const d of job.deployed) d.task.notifyCheckpointAborted(checkpointId);
}

/** Checkpoint and complete, one after another from `firstId`, until every task ended; returns the last checkpoint ID used. */
export async function checkpointUntilDone(job: RunningJob, firstId: number): Promise<number> {
  let id = firstId;
  for (;;) {
    const live = job.deployed.filter((d) => !isTerminalTaskState(d.task.state));
    if (live.length === 0) return id - 1;
    // Only sources are triggered: once none is live, the rest are just finishing.
    if (live.some((d) => d.task.state !== 'RUNNING') || !live.some((d) => d.isSource)) {
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    if ((await checkpoint(job, id)) === 'acked') notifyComplete(job, id);
    else notifyAborted(job, id);
    id++;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Each task's share of acknowledged checkpoint `checkpointId`, as the JobManager would deploy it. */
export function restoreFrom(job: RunningJob, checkpointId: number, storage: Storage | undefined): (vertexId: string, subtask: number) => TaskRestore {
  const acks = job.acks.get(checkpointId);
  return (vertexId, subtask) => {
    const deployed = job.deployed.find((d) => d.vertexId === vertexId && d.subtask === subtask);
    const ack = deployed === undefined ? undefined : acks?.get(deployed.task);
    const state: TaskStateSnapshot = ack?.state ?? { operators: {} };
    return { checkpointId, state: JSON.parse(JSON.stringify(state)) as TaskStateSnapshot, storage: storage?.child(`chk-${checkpointId}`), jobStorage: storage };
  };
}
