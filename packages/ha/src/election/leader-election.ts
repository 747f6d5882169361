import type { Etcd3, Watcher } from 'etcd3';
import { describeError, type Clock, type Logger } from '@weir/common';
import type { HaKeys } from '../keys.ts';
import type { HaSettings } from '../settings.ts';
import { encodeLeader, type LeaderAddresses } from '../retrieval/leader-info.ts';
import { LeaseKeeper } from './lease-keeper.ts';
import { LeadershipTerm } from './leadership-term.ts';

/** What the JobManager does when it wins or loses the election. */
export interface LeaderContender {
  /** This process leads from now on; leadership counts as taken once this resolves (jobs recovered). */
  grantLeadership(term: LeadershipTerm): Promise<void>;
  /** The term is over (lease lost, etcd unreachable for the TTL, shutdown): stop acting as leader at once. */
  revokeLeadership(term: LeadershipTerm, reason: string): void;
}

const RETRY_MS = 1_000;

/**
 * Leader election on an etcd lease, as etcd's own election recipe: every candidate puts a key
 * below `election/` on its lease; the candidate with the oldest key leads, the others each
 * watch the key just older than theirs. The leader publishes its addresses (gRPC and REST)
 * and epoch in `leader` (on the same lease), so TaskManagers, clients and the standbys' REST
 * APIs find it. A leader whose lease is
 * lost is revoked and campaigns again with a new lease, so it can only come back with a
 * higher epoch.
 */
export class LeaderElection {
  #closed = false;
  #running: Promise<void> | undefined;
  #wakeUp: (() => void) | undefined;
  #closeLease: (() => Promise<void>) | undefined;
  #leaderAddress: string | undefined;

  constructor(
    private readonly etcd: Etcd3,
    private readonly keys: HaKeys,
    private readonly settings: HaSettings,
    /** Where clients, TaskManagers and standbys reach this JobManager: published when it leads. */
    private readonly candidate: LeaderAddresses,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The address of the leader as this candidate last saw it (itself once elected); for NOT_LEADER messages. */
  get leaderAddress(): string | undefined {
    return this.#leaderAddress;
  }

  start(contender: LeaderContender): void {
    this.#running ??= this.#campaignForever(contender);
  }

  /** Stops campaigning; a leader revokes its lease, so a standby takes over at once. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#wakeUp?.();
    await this.#closeLease?.();
    await this.#running;
  }

  async #campaignForever(contender: LeaderContender): Promise<void> {
    while (!this.#closed) {
      try {
        await this.#campaignOnce(contender);
      } catch (err) {
        if (this.#closed) break;
        this.logger.warn({ err: describeError(err), retryInMs: RETRY_MS }, 'leader election failed, campaigning again');
      }
      if (!this.#closed) await this.#sleep(RETRY_MS);
    }
  }

  async #campaignOnce(contender: LeaderContender): Promise<void> {
    const { leaseTtlMs, renewIntervalMs } = this.settings;
    const lease = this.etcd.lease(leaseTtlMs / 1_000, { autoKeepAlive: false });
    const grantedAt = this.clock.now();
    const leaseId = await lease.grant();
    const keeper = new LeaseKeeper(lease, leaseTtlMs, renewIntervalMs, this.clock, this.logger, grantedAt);
    let revoked = false;
    this.#closeLease = async () => {
      if (revoked) return;
      revoked = true;
      keeper.stop();
      await lease.revoke().catch(() => undefined);
    };
    try {
      const key = `${this.keys.election}${BigInt(leaseId).toString(16)}`;
      const put = await lease.put(key).value(this.candidate.address).exec();
      const epoch = Number(put.header.revision);
      const outcome = await Promise.race([this.#awaitTurn(key, epoch), keeper.lost.then((reason) => ({ lost: reason }))]);
      if (typeof outcome === 'object') {
        this.logger.warn({ reason: outcome.lost }, 'lost the election lease while waiting to lead');
        return;
      }
      if (this.#closed) return;
      const term = new LeadershipTerm(this.etcd, key, epoch, this.candidate.address, keeper);
      this.#leaderAddress = this.candidate.address;
      await term.commit('publish the leader address', [this.etcd.put(this.keys.leader).value(encodeLeader({ ...this.candidate, epoch })).lease(leaseId)]);
      this.logger.info({ epoch, address: this.candidate.address, restUrl: this.candidate.restUrl }, `elected leader with epoch ${epoch}`);
      const stopped = new Promise<string>((resolve) => (this.#wakeUp = () => resolve('the JobManager is shutting down')));
      try {
        await contender.grantLeadership(term);
      } catch (err) {
        term.end();
        contender.revokeLeadership(term, `taking over failed: ${describeError(err)}`);
        throw err;
      }
      const reason = await Promise.race([keeper.lost, stopped]);
      term.end();
      this.logger.warn({ epoch, reason }, `leadership with epoch ${epoch} ended: ${reason}`);
      contender.revokeLeadership(term, reason);
    } finally {
      await this.#closeLease();
    }
  }

  /** Resolves with true once `key` is the oldest candidate: every older one's key was deleted. */
  async #awaitTurn(key: string, revision: number): Promise<true> {
    let logged = false;
    while (!this.#closed) {
      const candidates = await this.etcd.getAll().prefix(this.keys.election).sort('Create', 'Ascend').exec();
      const older = candidates.kvs.filter((kv) => Number(kv.create_revision) < revision);
      if (older.length === 0) return true;
      const predecessor = older[older.length - 1]!;
      this.#leaderAddress = candidates.kvs[0]!.value.toString();
      if (!logged) {
        this.logger.info({ leader: candidates.kvs[0]!.value.toString(), epoch: revision }, 'standing by: another JobManager leads');
        logged = true;
      }
      await this.#awaitDeletion(predecessor.key.toString(), Number(candidates.header.revision) + 1);
    }
    return true;
  }

  /** Waits until `key` is deleted (watching from `fromRevision`, so a deletion in between counts), at most one TTL before looking again. */
  async #awaitDeletion(key: string, fromRevision: number): Promise<void> {
    let watcher: Watcher | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = this.clock.setTimeout(resolve, this.settings.leaseTtlMs);
        this.#wakeUp = resolve;
        this.etcd
          .watch()
          .key(key)
          .startRevision(String(fromRevision))
          .create()
          .then((created) => {
            watcher = created;
            created.on('delete', () => {
              this.clock.clearTimeout(timer);
              resolve();
            });
          }, reject);
      });
    } finally {
      this.#wakeUp = undefined;
      await watcher?.cancel().catch(() => undefined);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(resolve, ms);
      this.#wakeUp = () => {
        this.clock.clearTimeout(timer);
        resolve();
      };
    });
  }
}
