import type { JobGraph } from '@weir/api';
import type { Clock, Logger, WeirError } from '@weir/common';
import type { JobCheckpointHa } from '../ha/leader-ha.ts';
import type { TaskManagerGateway } from '../job/task-manager-gateway.ts';
import type { CheckpointingSettings } from '../settings/job-settings.ts';
import type { CheckpointedSources } from './checkpointed-sources.ts';
import type { JobCheckpointStorage } from './checkpoint-storage.ts';
import type { CompletedCheckpoint } from './completed-checkpoint-store.ts';

/** What a job's CheckpointCoordinator works with. */
export interface CheckpointCoordinatorDeps {
  readonly jobId: string;
  readonly jobGraph: JobGraph;
  readonly settings: CheckpointingSettings;
  /** undefined: the memory backend without a directory, whose `_metadata` stays in memory. */
  readonly storage: JobCheckpointStorage | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly gateway: TaskManagerGateway;
  /** Fails the job over: more consecutive checkpoints failed than tolerable. */
  readonly failJob: (cause: WeirError) => void;
  /** The job's split enumerators: snapshotted before each trigger, told of completed checkpoints. */
  readonly sources?: CheckpointedSources;
  /** With HA: IDs from etcd, and a checkpoint counts only once registered there. */
  readonly ha?: JobCheckpointHa;
  /** A recovered job's retained checkpoints (from etcd), oldest first. */
  readonly recovered?: readonly CompletedCheckpoint[];
}
