import { WeirError, type WeirConfig } from '@weir/common';
import { HaErrorCode } from './errors.ts';

/** high-availability.* for high-availability.type: etcd, checked. */
export interface HaSettings {
  /** etcd client URLs, e.g. http://etcd:2379. */
  readonly endpoints: readonly string[];
  readonly clusterId: string;
  /** '' for processes that only look the leader up (TaskManagers, the CLI). */
  readonly storageDir: string;
  /** Whole seconds: etcd grants leases in seconds. */
  readonly leaseTtlMs: number;
  readonly renewIntervalMs: number;
}

/** Who reads the settings: a JobManager needs storageDir, a TaskManager or client only finds the leader. */
export type HaRole = 'jobmanager' | 'client';

/** etcd's smallest lease (1.5 x its 1 s election timeout, rounded up). */
const MIN_LEASE_TTL_MS = 2_000;

/** The HA settings, or undefined with high-availability.type: none. Throws INVALID_HA_CONFIG naming the key that is wrong. */
export function haSettingsFromConfig(config: WeirConfig, role: HaRole): HaSettings | undefined {
  if (config['high-availability.type'] === 'none') return undefined;
  const problems: string[] = [];
  const endpoints = config['high-availability.etcd.endpoints']
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .map((e) => (/^[a-z]+:\/\//.test(e) ? e : `http://${e}`));
  if (endpoints.length === 0) problems.push('high-availability.etcd.endpoints is empty: list the etcd client URLs, e.g. http://etcd:2379');
  for (const endpoint of endpoints) {
    if (!/^https?:\/\/[^/:]+:\d+\/?$/.test(endpoint)) problems.push(`high-availability.etcd.endpoints has ${endpoint}, which is not http://host:port`);
  }
  const clusterId = config['high-availability.cluster-id'].replace(/^\/+|\/+$/g, '');
  if (clusterId === '' || !/^[A-Za-z0-9._/-]+$/.test(clusterId)) {
    problems.push(`high-availability.cluster-id '${config['high-availability.cluster-id']}' must be letters, digits, '.', '_', '-' or '/'`);
  }
  const storageDir = config['high-availability.storageDir'];
  if (role === 'jobmanager' && storageDir === '') {
    problems.push('high-availability.storageDir is empty: a JobManager keeps the submitted jobs there (a local path every JobManager shares, or s3://bucket/prefix)');
  }
  const leaseTtlMs = Math.ceil(config['high-availability.etcd.lease-ttl'] / 1_000) * 1_000;
  if (leaseTtlMs < MIN_LEASE_TTL_MS) problems.push(`high-availability.etcd.lease-ttl must be at least 2s (etcd's shortest lease), not ${config['high-availability.etcd.lease-ttl']} ms`);
  const renewIntervalMs = config['high-availability.etcd.renew-interval'];
  if (renewIntervalMs <= 0 || renewIntervalMs >= leaseTtlMs) {
    problems.push(`high-availability.etcd.renew-interval (${renewIntervalMs} ms) must be above 0 and below high-availability.etcd.lease-ttl (${leaseTtlMs} ms); a third of it is usual`);
  }
  if (problems.length > 0) throw new WeirError(HaErrorCode.INVALID_HA_CONFIG, `high-availability.type is etcd, but ${problems.join('; ')}`);
  return { endpoints, clusterId, storageDir, leaseTtlMs, renewIntervalMs };
}
