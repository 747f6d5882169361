import { describe, expect, it } from 'vitest';
import { loadConfig } from '@weir/common';
import { haSettingsFromConfig } from './settings.ts';

const config = (values: Record<string, string>) => loadConfig({ dynamic: values });

describe('haSettingsFromConfig', () => {
  it('is undefined with high-availability.type: none', () => {
    expect(haSettingsFromConfig(config({}), 'jobmanager')).toBeUndefined();
  });

  it('reads endpoints (adding http://), cluster-id, storageDir, lease TTL in whole seconds and renew interval', () => {
    const settings = haSettingsFromConfig(
      config({
        'high-availability.type': 'etcd',
        'high-availability.etcd.endpoints': 'etcd-0:2379, http://etcd-1:2379',
        'high-availability.storageDir': 's3://weir/ha',
        'high-availability.cluster-id': '/prod/',
        'high-availability.etcd.lease-ttl': '2500ms',
        'high-availability.etcd.renew-interval': '1s',
      }),
      'jobmanager',
    );
    expect(settings).toEqual({ endpoints: ['http://etcd-0:2379', 'http://etcd-1:2379'], clusterId: 'prod', storageDir: 's3://weir/ha', leaseTtlMs: 3_000, renewIntervalMs: 1_000 });
  });

  it('names every key that is wrong', () => {
    expect(() => haSettingsFromConfig(config({ 'high-availability.type': 'etcd', 'high-availability.etcd.lease-ttl': '1s', 'high-availability.etcd.renew-interval': '5s' }), 'jobmanager')).toThrow(
      'high-availability.type is etcd, but high-availability.etcd.endpoints is empty: list the etcd client URLs, e.g. http://etcd:2379; high-availability.storageDir is empty: a JobManager keeps the submitted jobs there (a local path every JobManager shares, or s3://bucket/prefix); high-availability.etcd.lease-ttl must be at least 2s (etcd\'s shortest lease), not 1000 ms; high-availability.etcd.renew-interval (5000 ms) must be above 0 and below high-availability.etcd.lease-ttl (1000 ms); a third of it is usual',
    );
  });

  it('lets TaskManagers and clients go without storageDir', () => {
    expect(haSettingsFromConfig(config({ 'high-availability.type': 'etcd', 'high-availability.etcd.endpoints': 'http://etcd:2379' }), 'client')?.storageDir).toBe('');
  });
});
