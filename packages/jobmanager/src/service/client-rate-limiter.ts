import { WeirError, type Clock } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';

/** Clients remembered at most; past it, those whose bucket refilled are forgotten first. */
const MAX_CLIENTS = 10_000;

/**
 * Limits how often one client (its address) may submit jobs and trigger savepoints, over gRPC
 * and REST together: a token bucket per address holding `perMinute` requests, refilled evenly
 * over a minute. Each of these requests runs user code or writes a whole job's state, so one
 * client looping on them would take the JobManager from everyone else. 0 turns it off.
 */
export class ClientRateLimiter {
  readonly #buckets = new Map<string, { tokens: number; atMs: number }>();

  constructor(
    /** jobmanager.client.max-requests-per-minute */
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  /** Takes one request of `client`'s budget, or throws RATE_LIMITED saying when the next is allowed. */
  take(client: string, what: string): void {
    if (this.perMinute <= 0) return;
    const now = this.clock.now();
    const bucket = this.#buckets.get(client) ?? { tokens: this.perMinute, atMs: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.atMs) * this.perMinute) / 60_000);
    bucket.atMs = now;
    if (bucket.tokens < 1) {
      const waitMs = Math.ceil(((1 - bucket.tokens) * 60_000) / this.perMinute);
      throw new WeirError(
        JobManagerErrorCode.RATE_LIMITED,
        `too many requests from ${client}: ${what} is refused; at most ${this.perMinute} job submissions and savepoint triggers per minute per client (jobmanager.client.max-requests-per-minute), try again in ${Math.ceil(waitMs / 1_000)} s`,
      );
    }
    bucket.tokens -= 1;
    this.#buckets.delete(client);
    this.#buckets.set(client, bucket);
    if (this.#buckets.size > MAX_CLIENTS) this.#forgetOldest();
  }

  /** Drops the least recently seen client: its bucket has refilled the longest, or it is the one to lose. */
  #forgetOldest(): void {
    const oldest = this.#buckets.keys().next();
    if (oldest.done !== true) this.#buckets.delete(oldest.value);
  }
}

/** The client's address of a gRPC peer string (`127.0.0.1:5123`, `[::1]:5123`, `ipv4:…`), without the port. */
export function peerAddress(peer: string): string {
  const bare = peer.replace(/^ipv[46]:/, '');
  const bracketed = /^\[([^\]]+)\]/.exec(bare);
  if (bracketed !== null) return bracketed[1]!;
  const colon = bare.lastIndexOf(':');
  return colon > 0 && bare.indexOf(':') === colon ? bare.slice(0, colon) : bare;
}
