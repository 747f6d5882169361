import * as api from '@weir/api';
import { CommonErrorCode, WeirError, loadJobBundle } from '@weir/common';
import * as connectors from '@weir/connectors';
import type { JobPlanner } from './job-planner.ts';

/**
 * Plans jobs in this process the way every task rebuilds them: evaluates the bundle with this
 * process's own @weir/api and @weir/connectors, runs its default export against a
 * graph-building environment and chains the result into a JobGraph.
 */
export const apiJobPlanner: JobPlanner = {
  async plan(code, entryName, args, defaults) {
    try {
      const main = loadJobBundle<api.StreamExecutionEnvironment>(code, entryName, {
        '@weir/api': api,
        '@weir/connectors': connectors,
      });
      const streamGraph = await api.buildStreamGraph(main, [...args], defaults);
      const jobGraph = api.buildJobGraph(streamGraph);
      if (jobGraph.vertices.length === 0) {
        throw new WeirError(CommonErrorCode.INVALID_JOB, `job ${entryName} defines no operators; add a source and a sink`);
      }
      return { jobGraph, operatorsWithoutUid: api.operatorsWithoutUid(streamGraph).map((node) => node.name), executionConfig: streamGraph.config };
    } catch (err) {
      if (err instanceof WeirError) throw err;
      throw new WeirError(CommonErrorCode.INVALID_JOB, `job ${entryName} could not be built: ${(err as Error).message}`, { cause: err });
    }
  },
};
