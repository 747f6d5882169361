import type { Lease } from 'etcd3';
import { describeError, type Clock, type Logger, type TimerHandle } from '@weir/common';
import { etcd3Module } from '../etcd-module.ts';

const RETRY_AFTER_FAILURE_MS = 500;

/**
 * Renews an etcd lease every renew interval and knows until when it is surely valid: the
 * send time of the last renewal etcd confirmed plus the TTL it confirmed, less a margin for the
 * time a write started just before takes. etcd counts the TTL from when it received the
 * renewal, later than it was sent, so the lease is alive at etcd at least as long as this
 * process believes it. When etcd says the lease is gone, or no renewal got through before that
 * time, the lease counts as lost, once.
 */
export class LeaseKeeper {
  readonly lost: Promise<string>;
  #validUntil: number;
  #renewTimer: TimerHandle | undefined;
  #expiryTimer: TimerHandle | undefined;
  #stopped = false;
  /** Renewals are failing: logged once per outage. */
  #failing = false;
  #onLost!: (reason: string) => void;

  constructor(
    private readonly lease: Lease,
    private readonly ttlMs: number,
    private readonly renewIntervalMs: number,
    private readonly clock: Clock,
    private readonly logger: Logger,
    grantedAt: number,
  ) {
    this.lost = new Promise((resolve) => (this.#onLost = resolve));
    this.#validUntil = grantedAt + ttlMs - this.#margin;
    this.#armExpiry();
    this.#scheduleRenewal(renewIntervalMs);
  }

  /** True while the lease is surely alive at etcd. */
  get valid(): boolean {
    return !this.#stopped && this.clock.now() < this.#validUntil;
  }

  get validUntil(): number {
    return this.#validUntil;
  }

  /** Stops renewing; the lease runs out at etcd unless revoked. */
  stop(): void {
    this.#stopped = true;
    if (this.#renewTimer !== undefined) this.clock.clearTimeout(this.#renewTimer);
    if (this.#expiryTimer !== undefined) this.clock.clearTimeout(this.#expiryTimer);
  }

  /** A fifth of the TTL: how long before the computed expiry this process stops trusting the lease. */
  get #margin(): number {
    return Math.floor(this.ttlMs / 5);
  }

  #scheduleRenewal(delayMs: number): void {
    if (this.#stopped) return;
    this.#renewTimer = this.clock.setTimeout(() => void this.#renew(), delayMs);
  }

  async #renew(): Promise<void> {
    const sent = this.clock.now();
    let renewed = false;
    try {
      const response = await this.lease.keepaliveOnce({ deadline: Date.now() + this.renewIntervalMs });
      if (this.#stopped) return;
      const ttlSeconds = Number(response.TTL);
      if (!(ttlSeconds > 0)) {
        this.#lose('etcd says the lease expired');
        return;
      }
      this.#validUntil = Math.max(this.#validUntil, sent + ttlSeconds * 1_000 - this.#margin);
      this.#armExpiry();
      renewed = true;
      if (this.#failing) this.logger.info({ validForMs: this.#validUntil - this.clock.now() }, 'renewed the leader lease in etcd again');
      this.#failing = false;
    } catch (err) {
      if (this.#stopped) return;
      if (err instanceof etcd3Module().EtcdLeaseInvalidError) {
        this.#lose('etcd says the lease expired');
        return;
      }
      if (!this.#failing) this.logger.warn({ err: describeError(err), validForMs: this.#validUntil - this.clock.now() }, 'could not renew the leader lease in etcd; retrying every 500 ms');
      this.#failing = true;
    }
    // After a failure try again soon, not a whole interval later: an etcd outage shorter than
    // the lease must not cost the leadership.
    const next = renewed ? this.renewIntervalMs : Math.min(this.renewIntervalMs, RETRY_AFTER_FAILURE_MS);
    this.#scheduleRenewal(Math.max(0, sent + next - this.clock.now()));
  }

  #armExpiry(): void {
    if (this.#expiryTimer !== undefined) this.clock.clearTimeout(this.#expiryTimer);
    this.#expiryTimer = this.clock.setTimeout(() => {
      if (this.clock.now() >= this.#validUntil) this.#lose(`no renewal reached etcd for ${this.ttlMs - this.#margin} ms`);
      else this.#armExpiry();
    }, Math.max(0, this.#validUntil - this.clock.now()));
  }

  #lose(reason: string): void {
    if (this.#stopped) return;
    this.stop();
    this.#onLost(reason);
  }
}
