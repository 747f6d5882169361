import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runWeir } from './process.ts';

/** What `weir security init` wrote: the keys it printed (key -> file), the CA's PEM and the admin token. */
export interface ClusterCredentials {
  readonly keys: Readonly<Record<string, string>>;
  readonly ca: Buffer;
  readonly caPath: string;
  /** Undefined when the directory already had a tokens file (a renewal). */
  readonly adminToken: string | undefined;
  /** The high-availability.etcd.tls.* keys it printed (the node certificate as etcd client). */
  readonly etcdKeys: Readonly<Record<string, string>>;
}

/** Runs `weir security init <dir>` for localhost and `ips` (127.0.0.1), as a user would, and reads what it printed. */
export async function initClusterCredentials(dir: string, ips: readonly string[] = ['127.0.0.1']): Promise<ClusterCredentials> {
  const init = await runWeir(['security', 'init', dir, '--host', 'localhost', ...ips.flatMap((ip) => ['--ip', ip])]);
  if (init.code !== 0) throw new Error(`weir security init failed: ${init.stderr}`);
  const keys = Object.fromEntries([...init.stdout.matchAll(/^\s+(security\.[a-z.-]+): (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const caPath = join(dir, 'ca.pem');
  const etcdKeys = Object.fromEntries([...init.stdout.matchAll(/^\s+(high-availability\.etcd\.tls\.[a-z]+): (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  return { keys, etcdKeys, ca: readFileSync(caPath), caPath, adminToken: /^\s+(weir_\S+)$/m.exec(init.stdout)?.[1] };
}
