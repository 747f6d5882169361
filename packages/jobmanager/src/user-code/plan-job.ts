import * as api from '@weir/api';
import { CommonErrorCode, WeirError, type JobMain } from '@weir/common';
import { splitSourceOperators } from '../source/source-coordinators.ts';
import type { JobPlan } from '../submit/job-planner.ts';
import type { PlanRequest } from './protocol.ts';

/**
 * The `plan` request, in the job's worker: evaluates the bundle, runs its main against a
 * graph-building environment (as every task will, with the same args and defaults) and
 * chains the result into a JobGraph.
 */
export async function planJob(loadMain: () => JobMain<api.StreamExecutionEnvironment>, entryName: string, request: PlanRequest): Promise<JobPlan> {
  try {
    const streamGraph = await api.buildStreamGraph(loadMain(), [...request.args], request.defaults);
    const jobGraph = api.buildJobGraph(streamGraph);
    if (jobGraph.vertices.length === 0) {
      throw new WeirError(CommonErrorCode.INVALID_JOB, `job ${entryName} defines no operators; add a source and a sink`);
    }
    return {
      jobGraph,
      operatorsWithoutUid: api.operatorsWithoutUid(streamGraph).map((node) => node.name),
      exclusiveResources: api.exclusiveResources(streamGraph),
      executionConfig: streamGraph.config,
      splitSources: splitSourceOperators(streamGraph, jobGraph),
    };
  } catch (err) {
    if (err instanceof WeirError && err.code !== CommonErrorCode.USER_SYSTEM_EXIT) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new WeirError(err instanceof WeirError ? err.code : CommonErrorCode.INVALID_JOB, `job ${entryName} could not be built: ${message}`, { cause: err });
  }
}
