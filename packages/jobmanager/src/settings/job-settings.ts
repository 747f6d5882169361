import type { CheckpointingMode, ExternalizedCheckpointCleanup, RestartStrategySettings } from '@weir/api';

/** How a job takes checkpoints: its own settings over the cluster's, every field resolved. */
export interface CheckpointingSettings {
  readonly intervalMs: number;
  readonly mode: CheckpointingMode;
  readonly minPauseMs: number;
  readonly timeoutMs: number;
  readonly maxConcurrent: number;
  readonly tolerableFailures: number;
  readonly externalizedCleanup: ExternalizedCheckpointCleanup;
  readonly numRetained: number;
  /** memory: snapshots inline in the acks and `_metadata`; filesystem: task files below the job's checkpoint directory. */
  readonly backend: 'memory' | 'filesystem' | 'level';
  /** LevelDB backend: incremental checkpoints (shared table files). */
  readonly incremental: boolean;
  /** LevelDB backend with state.backend.changelog.enabled: changelog checkpoints, materialized this often; undefined when off. */
  readonly changelogMaterializeIntervalMs?: number;
  /** Unaligned checkpoints (only with EXACTLY_ONCE and one concurrent checkpoint). */
  readonly unaligned: boolean;
  /** With unaligned: start aligned and switch after this long; 0: unaligned from the start. */
  readonly alignedCheckpointTimeoutMs: number;
  /** The memory backend's limit for one task's snapshot; 0 for the filesystem backend. */
  readonly maxInlineBytes: number;
  readonly asyncSnapshots: boolean;
  /**
   * The checkpoint directory (local path or URL) below which the job writes `<jobId>/chk-<n>`;
   * undefined only for the memory backend without state.checkpoints.dir, whose `_metadata`
   * stays in the JobManager's memory.
   */
  readonly directory: string | undefined;
}

/** Where a job's keyed state lives: on the heap, or in LevelDB below the TaskManager's local state directory. */
export type KeyedStateBackendKind = 'heap' | 'level';

/** Everything about state, failures and checkpoints a job runs with; fixed at submission. */
export interface JobSettings {
  /** undefined: the job takes no checkpoints. */
  readonly checkpointing: CheckpointingSettings | undefined;
  /**
   * The keyed state backend, with or without checkpoints, as in Flink: state.backend (or the
   * job's own backend) chooses it, checkpointing only decides whether it is snapshotted.
   */
  readonly stateBackend: KeyedStateBackendKind;
  /** What the job set with env.setRestartStrategy, or what the cluster's restart-strategy.* keys resolve to. */
  readonly restartStrategy: RestartStrategySettings;
}
