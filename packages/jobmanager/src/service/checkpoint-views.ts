import type { ListCheckpointsResponse } from '@weir/rpc';
import type { JobMaster } from '../job/job-master.ts';

/** ListCheckpoints: the job's checkpoint history, newest first, with its counts. */
export function toListCheckpointsResponse(job: JobMaster): ListCheckpointsResponse {
  const view = job.checkpoints();
  return {
    checkpoints: view.checkpoints.map((c) => ({ ...c })),
    completed: view.completed,
    failed: view.failed,
    restoredFrom: view.restoredFrom,
    restoredBytes: view.restored?.stateBytes ?? 0,
    leftBehindCounted: view.leftBehind !== undefined,
    leftBehindFiles: view.leftBehind?.files ?? 0,
    leftBehindBytes: view.leftBehind?.bytes ?? 0,
    leftBehindCountedAtMs: view.leftBehind?.countedAtMs ?? 0,
  };
}
