import type { Etcd3, IOperation } from 'etcd3';
import { WeirError } from '@weir/common';
import { unavailable } from '../etcd.ts';
import { HaErrorCode } from '../errors.ts';
import type { LeaseKeeper } from './lease-keeper.ts';

/** An etcd operation of a guarded write. */
export type GuardedOp = IOperation;

/**
 * One JobManager's time as leader. The epoch (fencing token) is the etcd create revision of
 * its candidate key: etcd revisions only rise, so every later leader has a higher one. Writes
 * that only the leader may make go through `commit`, an etcd transaction that applies them
 * only while that candidate key still exists with that revision, which is Flink's "check the
 * leader latch in the same transaction".
 */
export class LeadershipTerm {
  #ended = false;

  constructor(
    private readonly etcd: Etcd3,
    readonly candidateKey: string,
    readonly epoch: number,
    readonly address: string,
    private readonly keeper: LeaseKeeper,
  ) {}

  /** True while the lease is surely alive and the term was not ended: writing as leader is safe. */
  get valid(): boolean {
    return !this.#ended && this.keeper.valid;
  }

  end(): void {
    this.#ended = true;
  }

  /**
   * Applies `ops` atomically if this JobManager still leads. LEADERSHIP_LOST when another one
   * leads (nothing was applied); HA_STORE_UNAVAILABLE when etcd did not answer (the outcome is
   * unknown); both before anything is sent once the term is no longer valid.
   */
  async commit(what: string, ops: readonly GuardedOp[], extra?: (txn: ReturnType<Etcd3['if']>) => void): Promise<void> {
    this.#ensureValid(what);
    const txn = this.etcd.if(this.candidateKey, 'Create', '==', this.epoch);
    extra?.(txn);
    let succeeded: boolean;
    try {
      succeeded = (await txn.then(...ops).commit()).succeeded;
    } catch (err) {
      throw unavailable(`could not ${what}`, err);
    }
    if (!succeeded) {
      throw new WeirError(HaErrorCode.LEADERSHIP_LOST, `could not ${what}: this JobManager (epoch ${this.epoch}) no longer leads, or the write's condition changed; nothing was written`);
    }
  }

  #ensureValid(what: string): void {
    if (this.valid) return;
    throw new WeirError(HaErrorCode.LEADERSHIP_LOST, `could not ${what}: this JobManager's leadership (epoch ${this.epoch}) ended or its lease could not be renewed in time`);
  }
}
