import type { CheckpointStats } from '../../checkpoint/checkpoint-history.ts';
import { CheckpointKind, CheckpointStatus } from '../../checkpoint/checkpoint-history.ts';
import type { JobMaster } from '../../job/job-master.ts';

/** One checkpoint in Flink's checkpoint statistics JSON, plus Weir's alignment and sync figures. */
function checkpointEntry(c: CheckpointStats): object {
  const isSavepoint = c.kind === CheckpointKind.SAVEPOINT;
  const failed = c.status === CheckpointStatus.FAILED;
  return {
    className: c.status === CheckpointStatus.COMPLETED ? 'completed' : failed ? 'failed' : 'in_progress',
    id: c.checkpointId,
    status: c.status,
    is_savepoint: isSavepoint,
    checkpoint_type: isSavepoint ? 'SAVEPOINT' : c.unaligned ? 'UNALIGNED_CHECKPOINT' : 'CHECKPOINT',
    trigger_timestamp: c.triggerTimeMs,
    latest_ack_timestamp: c.triggerTimeMs + c.durationMs,
    state_size: c.stateBytes,
    checkpointed_size: c.checkpointedBytes,
    end_to_end_duration: c.durationMs,
    alignment_duration: c.alignmentMs,
    sync_duration: c.syncMs,
    persisted_data: c.persistedBytes,
    unaligned: c.unaligned,
    num_subtasks: c.totalTasks,
    num_acknowledged_subtasks: c.acknowledged,
    external_path: c.externalPath === '' ? null : c.externalPath,
    discarded: c.status === CheckpointStatus.COMPLETED && !c.retained && !isSavepoint,
    failure_message: failed ? c.failureReason : null,
    failure_timestamp: failed ? c.triggerTimeMs + c.durationMs : null,
  };
}

/** min / max / avg of a figure over the completed checkpoints (Flink's summary statistics). */
function summary(values: readonly number[]): { min: number; max: number; avg: number } {
  if (values.length === 0) return { min: 0, max: 0, avg: 0 };
  return { min: Math.min(...values), max: Math.max(...values), avg: Math.round(values.reduce((a, b) => a + b, 0) / values.length) };
}

/** GET /jobs/:id/checkpoints: counts, summary, latest completed/savepoint/failed/restored, and the history, newest first. */
export function checkpointsView(job: JobMaster): object {
  const view = job.checkpoints();
  const history = view.checkpoints;
  const completed = history.filter((c) => c.status === CheckpointStatus.COMPLETED);
  const latestOf = (predicate: (c: CheckpointStats) => boolean): object | null => {
    const found = history.find(predicate);
    return found === undefined ? null : checkpointEntry(found);
  };
  const restored = view.restored;
  return {
    counts: {
      restored: view.restores,
      total: view.completed + view.failed + history.filter((c) => c.status === CheckpointStatus.IN_PROGRESS).length,
      in_progress: history.filter((c) => c.status === CheckpointStatus.IN_PROGRESS).length,
      completed: view.completed,
      failed: view.failed,
    },
    summary: {
      state_size: summary(completed.map((c) => c.stateBytes)),
      checkpointed_size: summary(completed.map((c) => c.checkpointedBytes)),
      end_to_end_duration: summary(completed.map((c) => c.durationMs)),
      alignment_duration: summary(completed.map((c) => c.alignmentMs)),
      persisted_data: summary(completed.map((c) => c.persistedBytes)),
    },
    latest: {
      completed: latestOf((c) => c.status === CheckpointStatus.COMPLETED && c.kind === CheckpointKind.CHECKPOINT),
      savepoint: latestOf((c) => c.status === CheckpointStatus.COMPLETED && c.kind === CheckpointKind.SAVEPOINT),
      failed: latestOf((c) => c.status === CheckpointStatus.FAILED),
      restored:
        restored === undefined
          ? null
          : { id: restored.checkpointId, restore_timestamp: restored.restoreTimestampMs, is_savepoint: restored.isSavepoint, external_path: restored.externalPath === '' ? null : restored.externalPath, state_size: restored.stateBytes },
    },
    history: history.map(checkpointEntry),
    // Weir's own: files of the job's checkpoint directory no checkpoint uses, as the last sweep counted them.
    left_behind: view.leftBehind === undefined ? null : { files: view.leftBehind.files, bytes: view.leftBehind.bytes, counted_at: view.leftBehind.countedAtMs },
  };
}

/** GET /jobs/:id/checkpoints/config: how the job checkpoints, in Flink's names; 404-free: a job without checkpointing says so. */
export function checkpointConfigView(job: JobMaster): object {
  const settings = job.spec.settings.checkpointing;
  if (settings === undefined) return { enabled: false };
  return {
    enabled: true,
    mode: settings.mode === 'EXACTLY_ONCE' ? 'exactly_once' : 'at_least_once',
    interval: settings.intervalMs,
    timeout: settings.timeoutMs,
    min_pause: settings.minPauseMs,
    max_concurrent: settings.maxConcurrent,
    tolerable_failed_checkpoints: settings.tolerableFailures,
    externalization: {
      enabled: settings.externalizedCleanup !== 'NO_EXTERNALIZED_CHECKPOINTS',
      delete_on_cancellation: settings.externalizedCleanup !== 'RETAIN_ON_CANCELLATION',
    },
    state_backend: settings.backend,
    checkpoint_storage: settings.directory ?? 'jobmanager memory',
    unaligned_checkpoints: settings.unaligned,
    aligned_checkpoint_timeout: settings.alignedCheckpointTimeoutMs,
    incremental: settings.incremental,
    num_retained: settings.numRetained,
  };
}
