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
}

/** Runs `weir security init <dir>` for localhost and 127.0.0.1, as a user would, and reads what it printed. */
export async function initClusterCredentials(dir: string): Promise<ClusterCredentials> {
  const init = await runWeir(['security', 'init', dir, '--host', 'localhost', '--ip', '127.0.0.1']);
  if (init.code !== 0) throw new Error(`weir security init failed: ${init.stderr}`);
  const keys = Object.fromEntries([...init.stdout.matchAll(/^\s+(security\.[a-z.-]+): (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const caPath = join(dir, 'ca.pem');
  return { keys, ca: readFileSync(caPath), caPath, adminToken: /^\s+(weir_\S+)$/m.exec(init.stdout)?.[1] };
}
