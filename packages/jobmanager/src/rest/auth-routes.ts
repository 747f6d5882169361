import { ANONYMOUS, principalId } from '@weir/security';
import type { FastifyInstance } from 'fastify';
import { resource } from './http-resources.ts';

/**
 * GET /auth/whoami (Weir's own; Flink's REST API has no authentication): who the caller's
 * token names, for the dashboard's login and for what it shows. Behind the guard like every
 * API route, so a missing or unknown token is 401 and any role may ask. Answered by each
 * JobManager itself: its guard authenticated the caller with the cluster's one
 * configuration. Without authentication every caller is the anonymous admin, and
 * `authentication: false` tells the dashboard no login is needed.
 */
export function authRoutes(app: FastifyInstance, authenticationEnabled: boolean): void {
  resource(app, '/auth/whoami', {
    GET: (request) => {
      const principal = request.weirPrincipal ?? ANONYMOUS;
      return { authentication: authenticationEnabled, name: principal.name, role: principal.role, via: principal.via, principal: principalId(principal) };
    },
  }, { local: true });
}
