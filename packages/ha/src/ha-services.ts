import type { Etcd3 } from 'etcd3';
import type { Clock, Logger } from '@weir/common';
import type { Storage, StorageOpener } from '@weir/storage';
import { HaCheckpointStore } from './checkpoints/checkpoint-store.ts';
import { claimClusterId } from './cluster-identity.ts';
import { LeaderElection } from './election/leader-election.ts';
import type { LeadershipTerm } from './election/leadership-term.ts';
import { ensureEtcdReachable, openEtcd } from './etcd.ts';
import { HaJobStore } from './jobs/job-store.ts';
import { HaKeys } from './keys.ts';
import type { HaSettings } from './settings.ts';
import type { LeaderAddresses } from './retrieval/leader-info.ts';
import { LeaderRetrieval, type LeaderListener } from './retrieval/leader-retrieval.ts';
import { probeStorageDir } from './storage-probe.ts';

/** How long a JobManager or TaskManager waits for etcd at start before giving up with ETCD_UNREACHABLE. */
export const ETCD_START_TIMEOUT_MS = 10_000;

export interface HaServicesOptions {
  readonly logger: Logger;
  readonly clock: Clock;
  /** Opens storageDir (a local path, file:// or s3:// URL). */
  readonly openStorage: StorageOpener;
}

/**
 * A JobManager's HA services on etcd, checked at start: etcd answers (ETCD_UNREACHABLE),
 * storageDir is writable (HA_STORAGE_NOT_WRITABLE), and the cluster-id is this cluster's
 * (CLUSTER_ID_IN_USE).
 */
export class EtcdHaServices {
  readonly keys: HaKeys;
  readonly jobs: HaJobStore;

  private constructor(
    readonly settings: HaSettings,
    private readonly etcd: Etcd3,
    private readonly storage: Storage,
    private readonly options: HaServicesOptions,
  ) {
    this.keys = new HaKeys(settings.clusterId);
    this.jobs = new HaJobStore(etcd, this.keys, storage);
  }

  static async open(settings: HaSettings, options: HaServicesOptions): Promise<EtcdHaServices> {
    const etcd = openEtcd(settings);
    let storage: Storage | undefined;
    try {
      await ensureEtcdReachable(etcd, settings, ETCD_START_TIMEOUT_MS);
      storage = options.openStorage(settings.storageDir).child(settings.clusterId);
      await probeStorageDir(storage);
      await claimClusterId(etcd, new HaKeys(settings.clusterId), settings.clusterId, settings.storageDir);
      return new EtcdHaServices(settings, etcd, storage, options);
    } catch (err) {
      storage?.close();
      etcd.close();
      throw err;
    }
  }

  /** Where jobs and bundles are kept: `<storageDir>/<cluster-id>`. */
  get storageUrl(): string {
    return this.storage.url;
  }

  /** Campaigns with these addresses, published in `leader` while this JobManager leads. */
  election(candidate: LeaderAddresses): LeaderElection {
    return new LeaderElection(this.etcd, this.keys, this.settings, candidate, this.options.clock, this.options.logger.child({ scope: 'leader-election' }));
  }

  /** Follows the `leader` key (a standby's REST API forwards to it); `close()` stops following. */
  async followLeader(listener: LeaderListener): Promise<LeaderRetrieval> {
    const retrieval = new LeaderRetrieval(this.etcd, this.keys, this.options.logger.child({ scope: 'leader-retrieval' }));
    try {
      await retrieval.start(listener);
    } catch (err) {
      await retrieval.close();
      throw err;
    }
    return retrieval;
  }

  /** The job's checkpoint ID counter and completed-checkpoint pointers, written under `term`. */
  checkpoints(jobId: string, term: LeadershipTerm, logger: Logger): HaCheckpointStore {
    return new HaCheckpointStore(this.etcd, this.keys, jobId, term, logger);
  }

  close(): void {
    this.storage.close();
    this.etcd.close();
  }
}
