import { WeirError, describeError, type Logger } from '@weir/common';
import { bindFailed } from '@weir/rpc';
import fastifyStatic from '@fastify/static';
import { followCertificates, secureContextOptions, type PemSource } from '@weir/security';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { authRoutes } from './auth-routes.ts';
import { clusterRoutes } from './cluster-routes.ts';
import { jobRoutes } from './job-routes.ts';
import { metricRoutes } from './metric-routes.ts';
import { forwardToLeader, type LeaderForwardingOptions } from './leader-forwarding.ts';
import type { RestContext } from './rest-context.ts';
import { RestErrorCode, errorBody, httpStatusOf } from './rest-errors.ts';
import { guardRest, type RestGuardOptions } from './rest-guard.ts';
import { savepointRoutes } from './savepoint-routes.ts';
import { checkpointRoutes } from './checkpoint-routes.ts';

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
  /** Bounds on what one request and all connections together may hold; DEFAULT_REST_LIMITS in tests. */
  readonly limits?: RestLimits;
  /** Authentication, authorization and audit of every API request (@weir/security); undefined: open, as before security. */
  readonly guard?: RestGuardOptions;
  /** HTTPS with this certificate (security.ssl.rest.*), followed when its files change; undefined: plain HTTP. */
  readonly tls?: PemSource;
}

/** rest.server.*: what a client may make the REST server hold. */
export interface RestLimits {
  /** rest.server.max-content-length: a larger body is answered 413 at once, from its Content-Length, unread. */
  readonly maxContentLength: number;
  /** rest.server.request-timeout: the headers and the body must have arrived within this; else the connection is closed. */
  readonly requestTimeoutMs: number;
  /** rest.server.max-connections: connections beyond it are closed as they come. */
  readonly maxConnections: number;
}

export const DEFAULT_REST_LIMITS: RestLimits = { maxContentLength: 1024 ** 2, requestTimeoutMs: 10_000, maxConnections: 256 };

/** How often Node checks requests against their timeouts (its default, 30 s, would let a slow request outlive a short timeout by that much). */
const TIMEOUT_CHECK_INTERVAL_MS = 500;

export interface RestServer {
  readonly port: number;
  close(): Promise<void>;
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Weir</title><p>The Weir dashboard has not been built. Run <code>pnpm install</code> (or <code>pnpm --filter @weir/dashboard build</code>) and restart the JobManager. The REST API is served at <a href="/overview">/overview</a>, <a href="/jobs/overview">/jobs/overview</a>, …</p>`;

/** The REST API and the dashboard on one HTTP server (fastify), as Flink's JobManager serves them. */
export function buildRestApp(options: Omit<RestServerOptions, 'host' | 'port'>): FastifyInstance {
  const limits = options.limits ?? DEFAULT_REST_LIMITS;
  const tls = options.tls;
  const app = Fastify({
    logger: false,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: limits.maxContentLength,
    // A connection that sends nothing for this long is closed, between requests too.
    connectionTimeout: limits.requestTimeoutMs,
    serverFactory: (handler) => {
      const timeouts = { requestTimeout: limits.requestTimeoutMs, headersTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS };
      // An HTTPS server is an HTTP server to fastify's handler; only its sockets differ.
      const server = tls === undefined ? createServer(timeouts, handler) : (createHttpsServer({ ...timeouts, ...secureContextOptions(tls.current) }, handler) as unknown as Server);
      server.maxConnections = limits.maxConnections;
      if (tls !== undefined) followCertificates(server as unknown as Parameters<typeof followCertificates>[0], tls);
      return server;
    },
  });
  app.setErrorHandler((err: FastifyError | WeirError, request, reply) => {
    const error = asWeirError(err, limits.maxContentLength);
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
  authRoutes(app, options.guard?.security.authenticator.enabled ?? false);
  clusterRoutes(app, options.context);
  jobRoutes(app, options.context);
  metricRoutes(app, options.context);
  savepointRoutes(app, options.context);
  checkpointRoutes(app, options.context);
  if (options.dashboardDir === undefined) {
    app.get('/', { config: { public: true } }, (_request, reply) => reply.type('text/html').send(NOT_BUILT));
  } else {
    const root = options.dashboardDir;
    // In a context of their own, so that only the static files' routes are marked public: the guard denies every route not marked.
    void app.register(async (files) => {
      files.addHook('onRoute', (route) => {
        route.config = { ...route.config, public: true };
      });
      // Files are listed once at start-up: the dashboard is built before the JobManager starts.
      await files.register(fastifyStatic, { root, wildcard: false, index: 'index.html' });
    });
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

/** A handler's WeirError as it is; fastify's own errors (a body that is not JSON, say) as BAD_REQUEST, a body too large as REQUEST_TOO_LARGE; anything else INTERNAL. */
function asWeirError(err: FastifyError | WeirError, maxContentLength: number): WeirError {
  if (err instanceof WeirError) return err;
  if (err.statusCode === 413) {
    return new WeirError(RestErrorCode.REQUEST_TOO_LARGE, `the request body is larger than the ${maxContentLength} bytes this REST API takes (rest.server.max-content-length)`);
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) return new WeirError(RestErrorCode.BAD_REQUEST, err.message);
  return new WeirError('INTERNAL', describeError(err));
}
