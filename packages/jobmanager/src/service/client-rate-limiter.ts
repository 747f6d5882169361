import { isIPv4, isIPv6 } from 'node:net';
import { WeirError, type Clock } from '@weir/common';
import { principalId, type Principal } from '@weir/security';
import { JobManagerErrorCode } from '../errors.ts';

/** Clients remembered at most; past it, those whose bucket refilled are forgotten first. */
const MAX_CLIENTS = 10_000;

/**
 * Limits how often one client (rateLimitKey: its principal, or its address) may submit jobs and trigger savepoints, over gRPC
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

/**
 * Whose budget a request takes: with authentication on, the principal's (`token:alice`), so
 * that clients behind one NAT or proxy (a standby JobManager forwarding REST is one) do not
 * share one, and one client cannot get more by using more addresses; without it, the
 * address's, an IPv6 address by its /64 (one host usually has the whole /64 to pick from).
 */
export function rateLimitKey(principal: Principal | undefined, address: string): string {
  if (principal !== undefined && principal.via !== 'anonymous') return principalId(principal);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null && isIPv4(mapped[1]!)) return mapped[1]!;
  return isIPv6(address) ? `${ipv6Groups(address).slice(0, 4).join(':')}::/64` : address;
}

/** The eight groups of an IPv6 address, `::` expanded, leading zeros dropped (zone ID and embedded IPv4 taken apart). */
function ipv6Groups(address: string): string[] {
  const bare = address.replace(/%.*$/, '');
  const [head, tail] = bare.includes('::') ? bare.split('::') as [string, string] : [bare, undefined];
  const parts = (text: string | undefined) => (text === undefined || text === '' ? [] : text.split(':').flatMap((group) => (group.includes('.') ? ipv4AsGroups(group) : [group])));
  const left = parts(head);
  const right = parts(tail);
  const middle = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16));
}

function ipv4AsGroups(address: string): string[] {
  const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/** The client's address of a gRPC peer string (`127.0.0.1:5123`, `[::1]:5123`, `ipv4:…`), without the port. */
export function peerAddress(peer: string): string {
  const bare = peer.replace(/^ipv[46]:/, '');
  const bracketed = /^\[([^\]]+)\]/.exec(bare);
  if (bracketed !== null) return bracketed[1]!;
  const colon = bare.lastIndexOf(':');
  return colon > 0 && bare.indexOf(':') === colon ? bare.slice(0, colon) : bare;
}
