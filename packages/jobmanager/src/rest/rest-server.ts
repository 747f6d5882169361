import { WeirError, describeError, type Logger } from '@weir/common';
import { bindFailed } from '@weir/rpc';
import fastifyStatic from '@fastify/static';
import { followCertificates, secureContextOptions, type PemSource } from '@weir/security';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { clusterRoutes } from './cluster-routes.ts';
import { jobRoutes } from './job-routes.ts';
import { metricRoutes } from './metric-routes.ts';
import { forwardToLeader, type LeaderForwardingOptions } from './leader-forwarding.ts';
import type { RestContext } from './rest-context.ts';
import { RestErrorCode, errorBody, httpStatusOf } from './rest-errors.ts';
import { guardRest, type RestGuardOptions } from './rest-guard.ts';
import { savepointRoutes } from './savepoint-routes.ts';

export interface RestServerOptions {
  /** rest.bind-address */
  readonly host: string;
  /** rest.port; 0 picks a free one. */
  readonly port: number;
  readonly context: RestContext;
  /** The built dashboard, served at `/`; undefined when it was not built. */
  readonly dashboardDir: string | undefined;
  readonly logger: Logger;
  /** With HA: while this JobManager stands by, its REST resources answer from the leader's. */
  readonly forwarding?: LeaderForwardingOptions;
  /** Authentication, authorization and audit of every API request (@weir/security); undefined: open, as before security. */
  readonly guard?: RestGuardOptions;
  /** HTTPS with this certificate (security.ssl.rest.*), followed when its files change; undefined: plain HTTP. */
  readonly tls?: PemSource;
}

export interface RestServer {
  readonly port: number;
  close(): Promise<void>;
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Weir</title><p>The Weir dashboard has not been built. Run <code>pnpm install</code> (or <code>pnpm --filter @weir/dashboard build</code>) and restart the JobManager. The REST API is served at <a href="/overview">/overview</a>, <a href="/jobs/overview">/jobs/overview</a>, …</p>`;

/** The REST API and the dashboard on one HTTP server (fastify), as Flink's JobManager serves them. */
export function buildRestApp(options: Omit<RestServerOptions, 'host' | 'port'>): FastifyInstance {
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true }, ...(options.tls === undefined ? {} : { https: secureContextOptions(options.tls.current) }) });
  if (options.tls !== undefined) followCertificates(app.server as unknown as Parameters<typeof followCertificates>[0], options.tls);
  app.setErrorHandler((err: FastifyError | WeirError, request, reply) => {
    const error = asWeirError(err);
    const status = httpStatusOf(error.code);
    // 503: no leader to ask during an election, which the JobManager logs once, not per request.
    if (status >= 500 && status !== 503) options.logger.warn({ err, method: request.method, url: request.url }, 'REST request failed');
    return reply.code(status).send(errorBody(error));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody(new WeirError(RestErrorCode.NOT_FOUND, `no REST resource at ${request.url}; GET /overview, /jobs/overview and /taskmanagers are places to start`))),
  );
  // Before forwarding: a standby refuses what the leader would.
  if (options.guard !== undefined) guardRest(app, options.guard);
  if (options.forwarding !== undefined) forwardToLeader(app, options.forwarding);
  clusterRoutes(app, options.context);
  jobRoutes(app, options.context);
  metricRoutes(app, options.context);
  savepointRoutes(app, options.context);
  if (options.dashboardDir === undefined) {
    app.get('/', (_request, reply) => reply.type('text/html').send(NOT_BUILT));
  } else {
    // Files are listed once at start-up: the dashboard is built before the JobManager starts.
    void app.register(fastifyStatic, { root: options.dashboardDir, wildcard: false, index: 'index.html' });
  }
  return app;
}

/** Starts the REST server; rejects with BIND_FAILED when the port is taken. */
export async function startRestServer(options: RestServerOptions): Promise<RestServer> {
  const app = buildRestApp(options);
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (err) {
    await app.close();
    throw bindFailed(options.host, options.port, err as Error);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return { port, close: () => app.close() };
}

/** A handler's WeirError as it is; fastify's own errors (a body that is not JSON, say) as BAD_REQUEST; anything else INTERNAL. */
function asWeirError(err: FastifyError | WeirError): WeirError {
  if (err instanceof WeirError) return err;
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) return new WeirError(RestErrorCode.BAD_REQUEST, err.message);
  return new WeirError('INTERNAL', describeError(err));
}
