import type { WeirConfig } from '@weir/common';

/**
 * Where others reach this JobManager's REST API, published in etcd when it leads: `rest.address`,
 * else `jobmanager.rpc.address` (as Flink falls back), never the bind address, which may be
 * 0.0.0.0; with the port the server bound (rest.port, or the one picked for 0); https with
 * security.ssl.rest.enabled.
 */
export function advertisedRestUrl(config: WeirConfig, boundPort: number): string {
  const host = config['rest.address'] === '' ? config['jobmanager.rpc.address'] : config['rest.address'];
  // An IPv6 address needs brackets in a URL.
  const scheme = config['security.ssl.rest.enabled'] ? 'https' : 'http';
  return `${scheme}://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${boundPort}`;
}
