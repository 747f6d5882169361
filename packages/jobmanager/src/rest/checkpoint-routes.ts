import type { FastifyInstance } from 'fastify';
import { isFullCheckpoint } from '../checkpoint/checkpoint-type.ts';
import { rateLimitKey } from '../service/client-rate-limiter.ts';
import { resource } from './http-resources.ts';
import { jobOf } from './job-routes.ts';
import type { RestContext } from './rest-context.ts';
import { bodyOf, operationView } from './savepoint-routes.ts';
import { checkpointsView } from './views/checkpoint-view.ts';

/**
 * GET /jobs/:jobid/checkpoints (the history), and Flink 1.19's on-demand checkpoint: POST
 * /jobs/:jobid/checkpoints ({"checkpointType": "FULL"|"INCREMENTAL"|"CONFIGURED"}) answers 202
 * with a request ID, polled at GET /jobs/:jobid/checkpoints/:triggerid (`operation.checkpointId`
 * and, differs from Flink, `operation.location`, the checkpoint's directory). A job without
 * checkpointing or not RUNNING fails at once (409), as the rate limit does (429).
 */
export function checkpointRoutes(app: FastifyInstance, ctx: RestContext): void {
  resource(app, '/jobs/:jobid/checkpoints', {
    GET: (request) => checkpointsView(jobOf(ctx, request)),
    POST: (request, reply) => {
      const job = jobOf(ctx, request);
      const full = isFullCheckpoint(bodyOf(request, ['checkpointType'], [])['checkpointType'] as string | undefined);
      ctx.rateLimiter.take(rateLimitKey(request.weirPrincipal, request.ip), `${request.method} ${request.routeOptions.url ?? request.url}`);
      const checkpoint = job.triggerCheckpoint(full).then((done) => ({ savepointPath: done.path, checkpointId: done.checkpointId }));
      return reply.code(202).send({ 'request-id': ctx.operations.start(job.jobId, checkpoint, 'checkpoint') });
    },
  });

  resource(app, '/jobs/:jobid/checkpoints/:triggerid', {
    GET: (request) => {
      const job = jobOf(ctx, request);
      return operationView(ctx.operations.get(job.jobId, (request.params as { triggerid: string }).triggerid, 'checkpoint'));
    },
  });
}
