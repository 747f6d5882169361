import { WeirError } from '@weir/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { RestErrorCode } from './rest-errors.ts';

export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A REST resource about the cluster: a standby forwards it to the leader (`leader-forwarding.ts`). */
    readonly forwardToLeader?: boolean;
    /** Served to anyone, before authentication (rest-guard.ts): only the dashboard's own files, which hold no cluster data. */
    readonly public?: boolean;
  }
}

export interface ResourceOptions {
  /** Answered by every JobManager itself, never forwarded to the leader: what describes this process (the dashboard's /config). */
  readonly local?: boolean;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const satisfies readonly HTTPMethods[];
type Method = (typeof METHODS)[number];

/**
 * Registers a REST resource: the handler of each method it supports, and for every other
 * method a 405 METHOD_NOT_ALLOWED naming those it does (with an Allow header). GET brings
 * HEAD with it; OPTIONS answers 204 with the Allow header. Unless `local`, a standby
 * JobManager forwards all of them to the leader.
 */
export function resource(app: FastifyInstance, url: string, handlers: Partial<Record<Method, Handler>>, options: ResourceOptions = {}): void {
  const config = { forwardToLeader: options.local !== true };
  const allowed = Object.keys(handlers) as Method[];
  for (const method of allowed) app.route({ method, url, config, handler: handlers[method]! });
  const others = METHODS.filter((m) => !allowed.includes(m));
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
  app.route({ method: 'OPTIONS', url, config, handler: (_request, reply) => reply.header('Allow', allow).code(204).send() });
  app.route({
    method: [...others, ...(allowed.includes('GET') ? [] : (['HEAD'] as const))],
    url,
    config,
    handler: (request, reply) => {
      reply.header('Allow', allow);
      throw new WeirError(RestErrorCode.METHOD_NOT_ALLOWED, `${request.method} is not allowed on ${url}; it takes ${allow}`);
    },
  });
}
