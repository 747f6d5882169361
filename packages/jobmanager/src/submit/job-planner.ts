import type { ExclusiveResource, ExecutionConfig, JobGraph } from '@weir/api';
import type { JobDefaults } from '../job/job-spec.ts';
import type { JobUserCode } from '../user-code/job-worker.ts';
import type { SplitSourceOperator } from '../source/source-coordinators.ts';

/** What evaluating a job bundle yields for scheduling. */
export interface JobPlan {
  readonly jobGraph: JobGraph;
  /** Names of the operators with no `.uid()`, whose state would not survive a change of the job. */
  readonly operatorsWithoutUid: readonly string[];
  /** What the job's sinks claim for the job alone (a KafkaSink's transactional id prefix); no two running jobs may share one. */
  readonly exclusiveResources?: readonly ExclusiveResource[];
  /** What the job set on its environment: checkpointing, state backend, restart strategy. */
  readonly executionConfig: ExecutionConfig;
  /** The job's split sources, whose enumerators run in the job's worker. */
  readonly splitSources: readonly SplitSourceOperator[];
}

export interface JobToPlan {
  readonly jobId: string;
  /** The bundle's code. */
  readonly code: string;
  readonly entryName: string;
  readonly args: readonly string[];
  readonly defaults: JobDefaults;
}

/** A plan, and where the job's code keeps running on the JobManager's side for the job's life. */
export interface PlannedJob extends JobPlan {
  readonly userCode: JobUserCode;
}

/** Turns a job bundle into its JobGraph; throws a WeirError (INVALID_JOB and the like) when it cannot, leaving nothing running. */
export interface JobPlanner {
  plan(job: JobToPlan): Promise<PlannedJob>;
}
