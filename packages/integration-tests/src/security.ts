import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
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

export interface HttpCallOptions {
  readonly method?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** The CA an https:// server's certificate must chain to. */
  readonly ca?: Buffer;
}

/** An HTTP(S) request's status and body, or the error that ended it (a TLS port answering plain HTTP closes the socket). */
export function httpAnswer(url: string, options: HttpCallOptions = {}): Promise<{ status: number; body: string } | string> {
  return new Promise((resolve) => {
    const headers = options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const request = send(url, { method: options.method ?? 'GET', headers, timeout: 5_000, ...(options.ca === undefined ? {} : { ca: options.ca }) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (err) => resolve(err.message));
    request.end();
  });
}

/** An HTTP(S) request's status, or the error that ended it. */
export async function httpStatus(url: string, options: HttpCallOptions = {}): Promise<number | string> {
  const answer = await httpAnswer(url, options);
  return typeof answer === 'string' ? answer : answer.status;
}
