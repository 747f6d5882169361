import type { ExecutionConfig, JobGraph } from '@weir/api';
import type { JobDefaults } from '../job/job-spec.ts';

/** What evaluating a job bundle yields for scheduling. */
export interface JobPlan {
  readonly jobGraph: JobGraph;
  /** Names of the operators with no `.uid()`, whose state would not survive a change of the job. */
  readonly operatorsWithoutUid: readonly string[];
  /** What the job set on its environment: checkpointing, state backend, restart strategy. */
  readonly executionConfig: ExecutionConfig;
}

/** Turns a job bundle into its JobGraph; throws a WeirError (INVALID_JOB and the like) when it cannot. */
export interface JobPlanner {
  plan(code: string, entryName: string, args: readonly string[], defaults: JobDefaults): Promise<JobPlan>;
}
