import type { TriggerSavepointRequest__Output } from '@weir/rpc';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resource } from './http-resources.ts';
import { jobOf } from './job-routes.ts';
import type { RestContext } from './rest-context.ts';
import { badRequest } from './rest-errors.ts';
import type { SavepointOperation } from './savepoint-operations.ts';
import { rateLimitKey } from '../service/client-rate-limiter.ts';

/** The body's fields, checked: a string or absent, a boolean or absent. */
export function bodyOf(request: FastifyRequest, strings: readonly string[], booleans: readonly string[]): Record<string, string | boolean | undefined> {
  const body: unknown = request.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(`the body of ${request.method} ${request.url} must be a JSON object`);
  const fields = body as Record<string, unknown>;
  for (const name of strings) {
    if (fields[name] !== undefined && fields[name] !== null && typeof fields[name] !== 'string') throw badRequest(`"${name}" must be a string (a directory path or URL)`);
  }
  for (const name of booleans) {
    if (fields[name] !== undefined && typeof fields[name] !== 'boolean') throw badRequest(`"${name}" must be true or false`);
  }
  return fields as Record<string, string | boolean | undefined>;
}

/** Flink's answer to polling an asynchronous operation. */
export function operationView(operation: SavepointOperation): object {
  if (operation.status === 'IN_PROGRESS') return { status: { id: 'IN_PROGRESS' } };
  const failure = operation.failure;
  return {
    status: { id: 'COMPLETED' },
    operation:
      failure === undefined
        ? { location: operation.location, checkpointId: operation.checkpointId }
        : { 'failure-cause': { class: failure.code, code: failure.code, 'stack-trace': failure.message } },
  };
}

/**
 * POST /jobs/:jobid/savepoints ({"target-directory", "cancel-job"}), POST /jobs/:jobid/stop
 * ({"targetDirectory", "drain"}): 202 with a request ID, polled at GET
 * /jobs/:jobid/savepoints/:triggerid. A request the job cannot take now (unknown job, no
 * checkpointing, not running, a savepoint in progress, a directory outside the allowed roots)
 * fails at once instead.
 */
export function savepointRoutes(app: FastifyInstance, ctx: RestContext): void {
  /** Checks the job can take a savepoint now (404, 409 at once), starts it and answers 202 with the ID to poll. */
  const trigger = async (request: FastifyRequest, reply: FastifyReply, build: (jobId: string) => TriggerSavepointRequest__Output) => {
    const job = jobOf(ctx, request);
    const savepointRequest = build(job.jobId);
    ctx.rateLimiter.take(rateLimitKey(request.weirPrincipal, request.ip), `${request.method} ${request.routeOptions.url ?? request.url}`);
    job.checkSavepointPossible();
    // 403 now, not a 202 whose operation fails: the directory is the client's to fix.
    await ctx.savepoints.checkTargetAllowed(savepointRequest.targetDirectory);
    return reply.code(202).send({ 'request-id': ctx.operations.start(job.jobId, ctx.savepoints.trigger(savepointRequest)) });
  };

  resource(app, '/jobs/:jobid/savepoints', {
    POST: (request, reply) =>
      trigger(request, reply, (jobId) => {
        const body = bodyOf(request, ['target-directory'], ['cancel-job']);
        return { jobId, targetDirectory: (body['target-directory'] as string | undefined) ?? '', terminate: body['cancel-job'] === true ? 'CANCEL' : '', drain: false };
      }),
  });

  resource(app, '/jobs/:jobid/stop', {
    POST: (request, reply) =>
      trigger(request, reply, (jobId) => {
        const body = bodyOf(request, ['targetDirectory'], ['drain']);
        return { jobId, targetDirectory: (body.targetDirectory as string | undefined) ?? '', terminate: 'STOP', drain: body.drain === true };
      }),
  });

  resource(app, '/jobs/:jobid/savepoints/:triggerid', {
    GET: (request) => {
      const job = jobOf(ctx, request);
      return operationView(ctx.operations.get(job.jobId, (request.params as { triggerid: string }).triggerid));
    },
  });
}
