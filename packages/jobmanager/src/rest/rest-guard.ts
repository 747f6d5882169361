import { WeirError, describeError } from '@weir/common';
import { SecurityErrorCode, authorize, principalId, type Action, type ClusterSecurity, type Principal } from '@weir/security';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JobOwners } from '../security/job-owners.ts';

export interface RestGuardOptions {
  readonly security: ClusterSecurity;
  readonly owners: JobOwners;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who made the request, once the guard authenticated it. */
    weirPrincipal?: Principal;
  }
}

/** What a REST request does: GETs read; cancel, savepoint, checkpoint and stop change a job. */
function actionOf(request: FastifyRequest): Action {
  const route = request.routeOptions.url ?? '';
  if (request.method === 'PATCH' && route === '/jobs/:jobid') return 'cancel';
  if (request.method === 'POST' && route === '/jobs/:jobid/stop') return 'stop';
  // With cancel-job in its body a savepoint also cancels; authorize rules cancel and savepoint alike, so the body need not be read first.
  if (request.method === 'POST' && route === '/jobs/:jobid/savepoints') return 'savepoint';
  if (request.method === 'POST' && route === '/jobs/:jobid/checkpoints') return 'checkpoint';
  return 'read';
}

/**
 * Authentication and authorization of the REST API, with the one `authorize` the gRPC API
 * uses: an `Authorization: Bearer <token>` header names the principal; each mutating request
 * leaves an audit line with its status. Runs before leader forwarding, so a standby refuses
 * what the leader would (and forwards the header). Every request is behind it, a route added
 * later and an unknown URL too, except routes marked `public`: the dashboard's files, which
 * hold no cluster data (it is all behind the API).
 */
export function guardRest(app: FastifyInstance, options: RestGuardOptions): void {
  const { security, owners } = options;
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public === true) return;
    const action = actionOf(request);
    const jobId = (request.params as { jobid?: string } | undefined)?.jobid;
    let principal: Principal;
    try {
      principal = await security.authenticator.authenticate(request.headers.authorization);
    } catch (err) {
      if (action !== 'read' && security.authenticator.enabled) security.audit.record({ principal: undefined, action, jobId, from: request.ip, result: `refused: ${describeError(err)}`, via: 'rest' });
      throw err;
    }
    // A standby knows no owner: a submitter's call on a job is the leader's to decide, after forwarding.
    const owner = jobId === undefined ? undefined : owners.knowsOwners?.() === false ? principalId(principal) : owners.ownerOf(jobId);
    const decision = authorize(principal, action, owner);
    if (!decision.allowed) {
      if (security.authenticator.enabled) security.audit.record({ principal, action, jobId, from: request.ip, result: `refused: ${decision.reason}`, via: 'rest' });
      throw new WeirError(SecurityErrorCode.PERMISSION_DENIED, decision.reason);
    }
    request.weirPrincipal = principal;
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!security.authenticator.enabled || request.weirPrincipal === undefined) return;
    const action = actionOf(request);
    if (action === 'read') return;
    const jobId = (request.params as { jobid?: string }).jobid;
    security.audit.record({ principal: request.weirPrincipal, action, jobId, from: request.ip, result: reply.statusCode < 400 ? `ok (${reply.statusCode})` : `failed (${reply.statusCode})`, via: 'rest' });
  });
}
