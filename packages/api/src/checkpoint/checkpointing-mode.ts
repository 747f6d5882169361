/** How barriers are handled at tasks with several inputs (Flink's CheckpointingMode). */
export const CheckpointingMode = {
  /** Aligned barriers: a channel that brought the barrier waits for the others, so state sees each record once. */
  EXACTLY_ONCE: 'EXACTLY_ONCE',
  /** Barriers are tracked without blocking: faster, but after a restore some records count twice. */
  AT_LEAST_ONCE: 'AT_LEAST_ONCE',
} as const;
export type CheckpointingMode = (typeof CheckpointingMode)[keyof typeof CheckpointingMode];

/** What happens to a job's retained checkpoints when it ends (Flink's ExternalizedCheckpointCleanup). */
export const ExternalizedCheckpointCleanup = {
  /** Retained checkpoints are deleted whenever the job ends. */
  NO_EXTERNALIZED_CHECKPOINTS: 'NO_EXTERNALIZED_CHECKPOINTS',
  /** Kept when the job fails, deleted when it is cancelled. */
  DELETE_ON_CANCELLATION: 'DELETE_ON_CANCELLATION',
  /** Kept when the job fails and when it is cancelled, to restart from by hand. */
  RETAIN_ON_CANCELLATION: 'RETAIN_ON_CANCELLATION',
} as const;
export type ExternalizedCheckpointCleanup = (typeof ExternalizedCheckpointCleanup)[keyof typeof ExternalizedCheckpointCleanup];
