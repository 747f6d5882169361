import type { Logger } from '@weir/common';
import { ensureEtcdReachable, openEtcd } from './etcd.ts';
import { ETCD_START_TIMEOUT_MS } from './ha-services.ts';
import { HaKeys } from './keys.ts';
import type { LeaderInfo } from './retrieval/leader-info.ts';
import { findLeader, LeaderRetrieval, type LeaderListener } from './retrieval/leader-retrieval.ts';
import type { HaSettings } from './settings.ts';

/** The leader's address now, for a client command (`weir list` without -m). */
export async function lookUpLeader(settings: HaSettings, timeoutMs: number): Promise<LeaderInfo> {
  const etcd = openEtcd(settings);
  try {
    return await findLeader(etcd, new HaKeys(settings.clusterId), settings, timeoutMs);
  } finally {
    etcd.close();
  }
}

/** Follows the leader for a TaskManager; `close()` stops following. */
export async function followLeader(settings: HaSettings, logger: Logger, listener: LeaderListener): Promise<{ close(): Promise<void> }> {
  const etcd = openEtcd(settings);
  const retrieval = new LeaderRetrieval(etcd, new HaKeys(settings.clusterId), logger);
  try {
    await ensureEtcdReachable(etcd, settings, ETCD_START_TIMEOUT_MS);
    await retrieval.start(listener);
  } catch (err) {
    etcd.close();
    throw err;
  }
  return {
    async close() {
      await retrieval.close();
      etcd.close();
    },
  };
}
