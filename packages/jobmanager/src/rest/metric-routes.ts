import { WeirError } from '@weir/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JobMaster } from '../job/job-master.ts';
import { jobMetrics } from '../metrics/job-metrics.ts';
import { resource } from './http-resources.ts';
import { jobOf, vertexOf } from './job-routes.ts';
import type { RestContext } from './rest-context.ts';
import { badRequest, RestErrorCode } from './rest-errors.ts';
import { aggregatedMetrics, aggregationsOf, listParameter, metricCollection, subtaskMetricValues, subtasksOf, vertexMetricValues, type MetricValues } from './views/metrics-view.ts';

/**
 * Flink's metrics resources of a job: its job metrics, and per vertex its subtasks' task and
 * operator metrics (`?get=` for values), aggregated over subtasks, or one subtask's. Values
 * are those the current attempt's subtasks last reported (metrics.fetcher.update-interval);
 * a restarted job's count from 0 again, as its new attempt's metrics do.
 */
export function metricRoutes(app: FastifyInstance, ctx: RestContext): void {
  resource(app, '/jobs/:jobid/metrics', {
    GET: (request) => {
      const values = new Map(Object.entries(jobMetrics(jobOf(ctx, request), ctx.clock.now())));
      return metricCollection(values, listParameter(request.query, 'get'));
    },
  });

  resource(app, '/jobs/:jobid/vertices/:vertexid/metrics', {
    GET: (request) => {
      const { job, vertexId, parallelism } = vertexParams(ctx, request);
      const subtasks = Array.from({ length: parallelism }, (_, i) => subtaskValues(ctx, job, vertexId, i));
      return metricCollection(vertexMetricValues(subtasks), listParameter(request.query, 'get'));
    },
  });

  resource(app, '/jobs/:jobid/vertices/:vertexid/subtasks/metrics', {
    GET: (request) => {
      const { job, vertexId, parallelism } = vertexParams(ctx, request);
      const subtasks = subtasksOf(request.query, parallelism).map((i) => subtaskValues(ctx, job, vertexId, i));
      return aggregatedMetrics(subtasks, listParameter(request.query, 'get'), aggregationsOf(request.query));
    },
  });

  resource(app, '/jobs/:jobid/vertices/:vertexid/subtasks/:subtaskindex/metrics', {
    GET: (request) => {
      const { job, vertexId, parallelism } = vertexParams(ctx, request);
      const raw = (request.params as { subtaskindex: string }).subtaskindex;
      if (!/^\d+$/.test(raw)) throw badRequest(`a subtask index is a number, not '${raw}'`);
      const index = Number(raw);
      if (index >= parallelism) throw new WeirError(RestErrorCode.SUBTASK_NOT_FOUND, `vertex '${vertexId}' of job ${job.jobId} has ${parallelism} subtasks (0 to ${parallelism - 1}), not ${index}`);
      return metricCollection(subtaskValues(ctx, job, vertexId, index), listParameter(request.query, 'get'));
    },
  });
}

function vertexParams(ctx: RestContext, request: FastifyRequest): { job: JobMaster; vertexId: string; parallelism: number } {
  const job = jobOf(ctx, request);
  const vertex = vertexOf(job, request);
  return { job, vertexId: vertex.id, parallelism: vertex.parallelism };
}

/** What subtask `index` of the vertex last reported in the job's current attempt; nothing before its first report. */
function subtaskValues(ctx: RestContext, job: JobMaster, vertexId: string, index: number): MetricValues {
  return subtaskMetricValues(ctx.metrics.subtask(job.jobId, vertexId, index, job.attempt));
}
