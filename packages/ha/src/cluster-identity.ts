import type { Etcd3 } from 'etcd3';
import { WeirError } from '@weir/common';
import { unavailable } from './etcd.ts';
import { HaErrorCode } from './errors.ts';
import type { HaKeys } from './keys.ts';

interface ClusterRecord {
  readonly storageDir: string;
}

/**
 * Claims the cluster-id for this storageDir, or checks the claim: JobManagers with the same
 * cluster-id and storageDir are one cluster (leader and standbys); another storageDir under
 * the same cluster-id is another cluster, whose jobs and leader would be taken for this
 * one's, so it is refused with CLUSTER_ID_IN_USE.
 */
export async function claimClusterId(etcd: Etcd3, keys: HaKeys, clusterId: string, storageDir: string): Promise<void> {
  const record: ClusterRecord = { storageDir };
  let existing: string | null;
  try {
    const txn = await etcd.if(keys.cluster, 'Version', '==', 0).then(etcd.put(keys.cluster).value(JSON.stringify(record))).else(etcd.get(keys.cluster)).commit();
    if (txn.succeeded) return;
    existing = txn.responses[0]?.response_range?.kvs[0]?.value.toString() ?? null;
  } catch (err) {
    throw unavailable(`claim high-availability.cluster-id '${clusterId}'`, err);
  }
  let theirs: string | undefined;
  try {
    theirs = (JSON.parse(existing ?? '') as Partial<ClusterRecord>).storageDir;
  } catch {
    theirs = undefined;
  }
  if (theirs === storageDir) return;
  throw new WeirError(
    HaErrorCode.CLUSTER_ID_IN_USE,
    `high-availability.cluster-id '${clusterId}' is already used on this etcd by a cluster with high-availability.storageDir ${theirs ?? existing}, not ${storageDir}: ` +
      `give each cluster its own cluster-id (or, if that cluster is gone for good, delete the etcd keys below ${keys.root})`,
  );
}
