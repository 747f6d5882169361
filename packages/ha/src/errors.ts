/** Codes of the errors of JobManager high availability (@weir/ha). */
export const HaErrorCode = {
  /** high-availability.* keys that cannot work together: etcd without endpoints or storageDir, a renew interval not below the lease TTL. */
  INVALID_HA_CONFIG: 'INVALID_HA_CONFIG',
  /** No etcd endpoint answered; the message names high-availability.etcd.endpoints. */
  ETCD_UNREACHABLE: 'ETCD_UNREACHABLE',
  /** Another cluster (another high-availability.storageDir) already uses this high-availability.cluster-id on the same etcd. */
  CLUSTER_ID_IN_USE: 'CLUSTER_ID_IN_USE',
  /** high-availability.storageDir cannot be written (a probe file could not be written and deleted). */
  HA_STORAGE_NOT_WRITABLE: 'HA_STORAGE_NOT_WRITABLE',
  /** A client or TaskManager called a JobManager that is not the leader; the message names the leader when one is known. */
  NOT_LEADER: 'NOT_LEADER',
  /** etcd knows no leader of the cluster (none elected yet, or the last one's lease just lapsed). */
  NO_LEADER: 'NO_LEADER',
  /** An etcd write guarded by this JobManager's leadership was refused: another JobManager leads now. Nothing was written. */
  LEADERSHIP_LOST: 'LEADERSHIP_LOST',
  /** An etcd call failed or timed out: it may or may not have been applied. */
  HA_STORE_UNAVAILABLE: 'HA_STORE_UNAVAILABLE',
  /** A job record or submission in etcd or storageDir cannot be read back. */
  HA_RECORD_CORRUPT: 'HA_RECORD_CORRUPT',
} as const;
export type HaErrorCode = (typeof HaErrorCode)[keyof typeof HaErrorCode];
