import { WeirError, type WeirConfig } from '@weir/common';
import type { ClientTlsFiles } from '@weir/security';
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
  /** high-availability.etcd.tls.*: the files for etcd over TLS; undefined: plain, or https:// with the system's CAs. */
  readonly tls?: ClientTlsFiles;
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
  const tls = etcdTlsFiles(config);
  if (tls !== undefined) {
    const plain = endpoints.filter((e) => !e.startsWith('https://'));
    if (plain.length > 0) problems.push(`high-availability.etcd.tls.* is set, but ${plain.join(', ')} ${plain.length === 1 ? 'is' : 'are'} not https://: give etcd's client URLs as https://host:port`);
    if ((tls.cert === undefined) !== (tls.key === undefined)) problems.push('high-availability.etcd.tls.cert and high-availability.etcd.tls.key go together: set both (a client certificate and its key) or neither');
  }
  if (problems.length > 0) throw new WeirError(HaErrorCode.INVALID_HA_CONFIG, `high-availability.type is etcd, but ${problems.join('; ')}`);
  return { endpoints, clusterId, storageDir, leaseTtlMs, renewIntervalMs, ...(tls === undefined ? {} : { tls }) };
}

/** The high-availability.etcd.tls.* files that are set, or undefined when none is. */
function etcdTlsFiles(config: WeirConfig): ClientTlsFiles | undefined {
  const set = (key: 'high-availability.etcd.tls.ca' | 'high-availability.etcd.tls.cert' | 'high-availability.etcd.tls.key') => (config[key].trim() === '' ? undefined : config[key].trim());
  const files = { ca: set('high-availability.etcd.tls.ca'), cert: set('high-availability.etcd.tls.cert'), key: set('high-availability.etcd.tls.key') };
  if (files.ca === undefined && files.cert === undefined && files.key === undefined) return undefined;
  return Object.fromEntries(Object.entries(files).filter(([, v]) => v !== undefined)) as ClientTlsFiles;
}
