import type { IncomingMessage } from 'node:http';
import { WeirError, describeError } from '@weir/common';
import { HaErrorCode } from '@weir/ha';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLeader, type ForwardingTls, type LeaderAnswer } from './leader-request.ts';
import { RestErrorCode } from './rest-errors.ts';

/** Where a REST request about the cluster is answered. */
export type RestTarget =
  /** Here: this JobManager leads (or runs without HA). */
  | { readonly kind: 'local' }
  /** At the leader's REST API: this JobManager stands by. */
  | { readonly kind: 'leader'; readonly address: string; readonly restUrl: string }
  /** Nowhere right now: 503 NO_LEADER saying why. */
  | { readonly kind: 'none'; readonly why: string };

export interface LeaderForwardingOptions {
  /** Asked at every request: leadership changes while the server runs. */
  readonly target: () => RestTarget;
  /** host:port of this JobManager, sent along so the leader's side can tell a forwarded request. */
  readonly self: string;
  /** How long the leader may take to answer (its handlers never block, so a few seconds means it is gone). */
  readonly timeoutMs: number;
  /** With internal TLS: the cluster's CA and this JobManager's node certificate, for a leader whose REST API is HTTPS. */
  readonly tls?: () => ForwardingTls;
}

/** Marks a forwarded request: a JobManager that does not lead answers it 503 rather than forwarding it again. */
export const FORWARDED_BY_HEADER = 'x-weir-forwarded-by';

/** Request headers that carry meaning to the leader's handlers (the leader authenticates the caller again); the rest (cookies, encodings, hop-by-hop) stay here. */
const REQUEST_HEADERS = ['content-type', 'accept', 'authorization'] as const;
/** Response headers the leader's answer keeps: its body's type and the methods a path takes (405). */
const RESPONSE_HEADERS = ['content-type', 'allow'] as const;

/**
 * A standby JobManager's REST API answers about the cluster as the leader does, as Flink's
 * LeaderRetrievalHandler: every request to a resource marked `forwardToLeader` goes to the
 * leader's REST API, and its status, body and content type come back as they are (POSTs and
 * PATCHes too: a savepoint, stop or cancel is the leader's to do). While no leader is known,
 * or the one etcd names does not answer, it is 503 (`NO_LEADER`, `LEADER_UNREACHABLE`).
 * The dashboard's files, /config and unknown paths are answered here. `leader-request.ts`
 * does the forwarding, over HTTPS checked against the cluster's CA when the leader's REST API
 * is HTTPS: a proxy plugin would be a dependency for one hook.
 */
export function forwardToLeader(app: FastifyInstance, options: LeaderForwardingOptions): void {
  // onRequest runs before the body is parsed, so the body goes on as the client sent it.
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.forwardToLeader !== true) return;
    const target = options.target();
    if (target.kind === 'local') return;
    if (target.kind === 'none') throw new WeirError(HaErrorCode.NO_LEADER, target.why);
    const forwardedBy = request.headers[FORWARDED_BY_HEADER];
    if (forwardedBy !== undefined) {
      throw new WeirError(
        HaErrorCode.NO_LEADER,
        `the JobManager at ${String(forwardedBy)} forwarded this request here, but this one stands by too (it sees ${target.address} as leader): the JobManagers disagree about the leader during an election; try again in a few seconds`,
      );
    }
    await forward(request, reply, target, options);
    return reply;
  });
}

async function forward(request: FastifyRequest, reply: FastifyReply, leader: { address: string; restUrl: string }, options: LeaderForwardingOptions): Promise<void> {
  const headers: Record<string, string> = { [FORWARDED_BY_HEADER]: options.self };
  for (const name of REQUEST_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request.raw, request.server.initialConfig.bodyLimit ?? 1024 * 1024);
  let answer: LeaderAnswer;
  try {
    answer = await requestLeader(new URL(request.url, leader.restUrl), { method: request.method, headers, body, timeoutMs: options.timeoutMs, tls: options.tls?.() });
  } catch (err) {
    throw new WeirError(
      RestErrorCode.LEADER_UNREACHABLE,
      `the leading JobManager ${leader.address} did not answer at ${leader.restUrl} (${describeError(causeOf(err))}); if it failed, a standby takes over within high-availability.etcd.lease-ttl: try again in a few seconds`,
    );
  }
  reply.code(answer.status);
  for (const name of RESPONSE_HEADERS) {
    const value = answer.headers[name];
    if (value !== undefined) reply.header(name, value);
  }
  reply.send(answer.body);
}

/** The request's body, at most `limit` bytes (fastify's bodyLimit, as for a request answered here). */
async function readBody(raw: IncomingMessage, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new WeirError(RestErrorCode.BAD_REQUEST, `the request body is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/** An abort by the time limit says only "aborted"; its cause says the timeout. */
function causeOf(err: unknown): unknown {
  return err instanceof Error && err.name === 'AbortError' && err.cause !== undefined ? err.cause : err;
}
