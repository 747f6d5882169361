import type { JobVertex } from '@weir/api';
import { WeirError } from '@weir/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JobMaster } from '../job/job-master.ts';
import { resource } from './http-resources.ts';
import type { RestContext } from './rest-context.ts';
import { badRequest, RestErrorCode } from './rest-errors.ts';
import { checkpointConfigView } from './views/checkpoint-view.ts';
import { exceptionsView } from './views/exceptions-view.ts';
import { jobDetails, jobOverview } from './views/job-view.ts';
import { planView } from './views/plan-view.ts';
import { vertexDetails } from './views/vertex-view.ts';

/** The job a request's `:jobid` names; JOB_NOT_FOUND (404) for one the JobManager does not know. */
export function jobOf(ctx: RestContext, request: FastifyRequest): JobMaster {
  return ctx.dispatcher.get((request.params as { jobid: string }).jobid);
}

/** The vertex a request's `:vertexid` names in `job`; JOB_VERTEX_NOT_FOUND (404) for one the job does not have. */
export function vertexOf(job: JobMaster, request: FastifyRequest): JobVertex {
  const { vertexid } = request.params as { vertexid: string };
  const vertex = job.spec.jobGraph.vertices.find((v) => v.id === vertexid);
  if (vertex === undefined) {
    throw new WeirError(RestErrorCode.JOB_VERTEX_NOT_FOUND, `job ${job.jobId} has no vertex '${vertexid}'; its vertices are ${job.spec.jobGraph.vertices.map((v) => v.id).join(', ')}`);
  }
  return vertex;
}

/** /jobs, /jobs/overview, /jobs/:jobid (GET, PATCH ?mode=cancel) and the job's plan, vertices, exceptions and checkpoint config (its checkpoints: checkpoint-routes.ts). */
export function jobRoutes(app: FastifyInstance, ctx: RestContext): void {
  resource(app, '/jobs', {
    GET: () => ({ jobs: ctx.dispatcher.list().map((job) => ({ id: job.jobId, status: job.status })) }),
  });

  resource(app, '/jobs/overview', {
    GET: () => ({ jobs: ctx.dispatcher.list().map((job) => jobOverview(job, ctx.clock.now())) }),
  });

  resource(app, '/jobs/:jobid', {
    GET: (request) => jobDetails(jobOf(ctx, request), ctx.metrics, ctx.clock.now()),
    PATCH: (request, reply) => {
      const job = jobOf(ctx, request);
      const mode = (request.query as { mode?: string }).mode;
      if (mode !== 'cancel') {
        throw badRequest(`PATCH /jobs/${job.jobId} takes ?mode=cancel${mode === undefined ? '' : `, not ?mode=${mode}`}; to stop with a savepoint, POST /jobs/${job.jobId}/stop`);
      }
      ctx.dispatcher.cancel(job.jobId);
      return reply.code(202).send({});
    },
  });

  resource(app, '/jobs/:jobid/plan', {
    GET: (request) => {
      const job = jobOf(ctx, request);
      return planView(job.jobId, job.spec.jobGraph);
    },
  });

  resource(app, '/jobs/:jobid/vertices/:vertexid', {
    GET: (request) => {
      const job = jobOf(ctx, request);
      return vertexDetails(job, ctx.metrics, vertexOf(job, request), ctx.clock.now());
    },
  });

  resource(app, '/jobs/:jobid/exceptions', {
    GET: (request) => exceptionsView(jobOf(ctx, request)),
  });

  resource(app, '/jobs/:jobid/checkpoints/config', {
    GET: (request) => checkpointConfigView(jobOf(ctx, request)),
  });
}
