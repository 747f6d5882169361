import { WeirError } from '@weir/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { RestErrorCode } from './rest-errors.ts';

export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const satisfies readonly HTTPMethods[];
type Method = (typeof METHODS)[number];

/**
 * Registers a REST resource: the handler of each method it supports, and for every other
 * method a 405 METHOD_NOT_ALLOWED naming those it does (with an Allow header). GET brings
 * HEAD with it; OPTIONS answers 204 with the Allow header.
 */
export function resource(app: FastifyInstance, url: string, handlers: Partial<Record<Method, Handler>>): void {
  const allowed = Object.keys(handlers) as Method[];
  for (const method of allowed) app.route({ method, url, handler: handlers[method]! });
  const others = METHODS.filter((m) => !allowed.includes(m));
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
  app.route({ method: 'OPTIONS', url, handler: (_request, reply) => reply.header('Allow', allow).code(204).send() });
  app.route({
    method: [...others, ...(allowed.includes('GET') ? [] : (['HEAD'] as const))],
    url,
    handler: (request, reply) => {
      reply.header('Allow', allow);
      throw new WeirError(RestErrorCode.METHOD_NOT_ALLOWED, `${request.method} is not allowed on ${url}; it takes ${allow}`);
    },
  });
}
