import type { CheckpointMetrics } from '@weir/common';

/** What a checkpoint ID was taken as, as `weir checkpoints` shows it. */
export const CheckpointKind = {
  CHECKPOINT: 'CHECKPOINT',
  SAVEPOINT: 'SAVEPOINT',
} as const;
export type CheckpointKind = (typeof CheckpointKind)[keyof typeof CheckpointKind];

export const CheckpointStatus = {
  IN_PROGRESS: 'IN_PROGRESS',
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
} as const;
export type CheckpointStatus = (typeof CheckpointStatus)[keyof typeof CheckpointStatus];

/** One checkpoint as `weir checkpoints` shows it. */
export interface CheckpointStats {
  readonly checkpointId: number;
  readonly status: CheckpointStatus;
  readonly triggerTimeMs: number;
  /** Trigger to completion or failure; so far for one in progress. */
  readonly durationMs: number;
  /** Full size: every byte the checkpoint refers to, shared files of earlier incremental checkpoints included (Flink's state_size). */
  readonly stateBytes: number;
  /** Bytes the tasks wrote for it: an incremental checkpoint leaves out what earlier ones uploaded (Flink's checkpointed_size). */
  readonly checkpointedBytes: number;
  readonly alignmentMs: number;
  readonly syncMs: number;
  readonly acknowledged: number;
  readonly totalTasks: number;
  /** `<CheckpointFailureReason code>: <message>` for a failed one, else empty. */
  readonly failureReason: string;
  /** Where `_metadata` is (or would be); empty when it is kept in the JobManager's memory. */
  readonly externalPath: string;
  readonly retained: boolean;
  /** CHECKPOINT or SAVEPOINT. */
  readonly kind: string;
  /** Some task took it unaligned. */
  readonly unaligned: boolean;
  /** In-flight bytes saved as channel state, over all tasks. */
  readonly persistedBytes: number;
}

/** The checkpoint or savepoint the current attempt started from. */
export interface RestoredCheckpoint {
  readonly checkpointId: number;
  /** When the attempt restored it (Flink's lastCheckpointRestoreTimestamp). */
  readonly restoreTimestampMs: number;
  readonly isSavepoint: boolean;
  /** Where its `_metadata` is; empty when it lives in the JobManager's memory. */
  readonly externalPath: string;
  /** Full size of its state: every byte its handles refer to. */
  readonly stateBytes: number;
}

export interface CheckpointHistoryView {
  /** Newest first. */
  readonly checkpoints: readonly CheckpointStats[];
  readonly completed: number;
  readonly failed: number;
  /** The checkpoint the current attempt restored; 0 when it started empty. */
  readonly restoredFrom: number;
  /** How often the job started from a checkpoint or savepoint (Flink's restored count). */
  readonly restores: number;
  /** Details of `restoredFrom`; undefined when the attempt started empty. */
  readonly restored: RestoredCheckpoint | undefined;
  /** What the last count after a sweep found in the checkpoint directory that no checkpoint uses; undefined before one. */
  readonly leftBehind?: LeftBehindCount;
}

/** Files of the job's checkpoint directory no checkpoint uses, their bytes, and when they were counted. */
export interface LeftBehindCount {
  readonly files: number;
  readonly bytes: number;
  readonly countedAtMs: number;
}

interface Entry {
  checkpointId: number;
  status: CheckpointStatus;
  triggerTimeMs: number;
  endTimeMs: number | undefined;
  stateBytes: number;
  checkpointedBytes: number;
  alignmentMs: number;
  syncMs: number;
  acknowledged: number;
  totalTasks: number;
  failureReason: string;
  externalPath: string;
  retained: boolean;
  kind: string;
  unaligned: boolean;
  persistedBytes: number;
}

/** The job's checkpoints over its whole life (the last `capacity` of them), with the counts. */
export class CheckpointHistory {
  readonly #entries = new Map<number, Entry>();
  #completed = 0;
  #failed = 0;
  #restored: RestoredCheckpoint | undefined;
  #restores = 0;

  constructor(private readonly capacity = 100) {}

  started(checkpointId: number, triggerTimeMs: number, totalTasks: number, externalPath: string, kind: CheckpointKind = CheckpointKind.CHECKPOINT): void {
    this.#entries.set(checkpointId, {
      checkpointId,
      status: CheckpointStatus.IN_PROGRESS,
      triggerTimeMs,
      endTimeMs: undefined,
      stateBytes: 0,
      checkpointedBytes: 0,
      alignmentMs: 0,
      syncMs: 0,
      acknowledged: 0,
      totalTasks,
      failureReason: '',
      externalPath,
      retained: false,
      kind,
      unaligned: false,
      persistedBytes: 0,
    });
    // Map iteration follows insertion, and IDs only rise: the first entry is the oldest.
    while (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  acknowledged(checkpointId: number, metrics: CheckpointMetrics): void {
    const entry = this.#entries.get(checkpointId);
    if (entry === undefined) return;
    entry.acknowledged++;
    entry.stateBytes += metrics.stateBytes;
    entry.checkpointedBytes += metrics.checkpointedBytes;
    entry.alignmentMs = Math.max(entry.alignmentMs, metrics.alignmentMs);
    entry.syncMs = Math.max(entry.syncMs, metrics.syncMs);
    entry.unaligned ||= metrics.unaligned;
    entry.persistedBytes += metrics.persistedBytes;
  }

  /** Completed and retained: the job may restore it. */
  completed(checkpointId: number, now: number): void {
    const entry = this.#complete(checkpointId, now);
    if (entry !== undefined) entry.retained = true;
  }

  /** A savepoint that stays out of the retained checkpoints was written: completed, but the job never restores it by itself. */
  savepointCompleted(checkpointId: number, now: number): void {
    this.#complete(checkpointId, now);
  }

  failed(checkpointId: number, now: number, failureReason: string): void {
    this.#failed++;
    const entry = this.#entries.get(checkpointId);
    if (entry === undefined) return;
    entry.status = CheckpointStatus.FAILED;
    entry.endTimeMs = now;
    entry.failureReason = failureReason;
  }

  /** A completed checkpoint was subsumed or deleted. */
  discarded(checkpointId: number): void {
    const entry = this.#entries.get(checkpointId);
    if (entry !== undefined) entry.retained = false;
  }

  restored(restored: RestoredCheckpoint): void {
    this.#restored = restored;
    this.#restores++;
  }

  #complete(checkpointId: number, now: number): Entry | undefined {
    this.#completed++;
    const entry = this.#entries.get(checkpointId);
    if (entry === undefined) return undefined;
    entry.status = CheckpointStatus.COMPLETED;
    entry.endTimeMs = now;
    return entry;
  }

  view(now: number): CheckpointHistoryView {
    const checkpoints = [...this.#entries.values()].reverse().map(({ endTimeMs, ...entry }) => ({
      ...entry,
      durationMs: (endTimeMs ?? now) - entry.triggerTimeMs,
    }));
    const restored = this.#restored;
    return { checkpoints, completed: this.#completed, failed: this.#failed, restoredFrom: restored?.checkpointId ?? 0, restores: this.#restores, restored };
  }
}
