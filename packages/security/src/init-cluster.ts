import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { WeirError } from '@weir/common';
import { createCertificateAuthority, issueCertificate, notIpAddresses, type CertificateNames } from './certificates.ts';
import { SecurityErrorCode } from './errors.ts';
import { newToken, tokensFileLine } from './tokens-file.ts';

export interface InitResult {
  readonly dir: string;
  /** Every security key with the file it points at. */
  readonly keys: Readonly<Record<string, string>>;
  /** The admin token, when this run wrote the tokens file (shown once, stored only hashed). */
  readonly adminToken: string | undefined;
  /** Whether an existing CA was kept (a renewal) or a new one made. */
  readonly reusedCa: boolean;
  /** etcd's own files, for `etcd --cert-file --key-file --trusted-ca-file --client-cert-auth`. */
  readonly etcd: { readonly cert: string; readonly key: string; readonly ca: string };
}

/** Written to a temp file and renamed: a process re-reading the file never sees half of it. */
function writeAtomically(path: string, content: string, mode: number): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, content, { mode });
  renameSync(temp, path);
}

/**
 * `weir security init <dir>`: a CA (kept when `dir` has one, so running it again renews the
 * certificates without changing what peers trust), a node certificate (server and client, for
 * JobManagers and TaskManagers, also their client certificate to etcd), a REST server
 * certificate, an etcd server certificate (the names given and `etcd`, the compose and
 * Kubernetes service name), and a tokens file with one admin token (only when there is none yet). Private keys are written readable by their owner only.
 */
export async function initClusterSecurity(dir: string, names: CertificateNames): Promise<InitResult> {
  if (names.hosts.length === 0 && names.ips.length === 0) {
    throw new WeirError(SecurityErrorCode.INVALID_SECURITY_CONFIG, 'give the names the cluster is reached at: --host <dns name> and/or --ip <address>, each as often as needed (e.g. --host localhost --ip 127.0.0.1)');
  }
  const wrongIps = notIpAddresses(names.ips);
  if (wrongIps.length > 0) throw new WeirError(SecurityErrorCode.INVALID_SECURITY_CONFIG, `--ip takes IP addresses; ${wrongIps.map((v) => JSON.stringify(v)).join(', ')} ${wrongIps.length === 1 ? 'is' : 'are'} not (give DNS names with --host)`);
  const root = resolve(dir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const path = (name: string) => join(root, name);
  const reusedCa = existsSync(path('ca.pem')) && existsSync(path('ca-key.pem'));
  const ca = reusedCa ? { cert: readFileSync(path('ca.pem'), 'utf8'), key: readFileSync(path('ca-key.pem'), 'utf8') } : await createCertificateAuthority();
  if (!reusedCa) {
    writeAtomically(path('ca-key.pem'), ca.key, 0o600);
    writeAtomically(path('ca.pem'), ca.cert, 0o644);
  }
  const node = await issueCertificate(ca, 'weir-node', names, 'node');
  const rest = await issueCertificate(ca, 'weir-rest', names, 'server');
  // Server and client usages: etcd shows it to clients and, in a cluster of several, to its peers.
  const etcd = await issueCertificate(ca, 'weir-etcd', { hosts: [...new Set([...names.hosts, 'etcd'])], ips: names.ips }, 'node');
  // Without names: etcd refuses a client certificate with IP or DNS names that do not match the
  // client's own address, and JobManagers, TaskManagers and clients connect from anywhere.
  const etcdClient = await issueCertificate(ca, 'weir-etcd-client', { hosts: [], ips: [] }, 'client');
  // Keys first: a process that re-reads between the two renames sees a pair that does not match and keeps its old one.
  writeAtomically(path('node-key.pem'), node.key, 0o600);
  writeAtomically(path('node.pem'), node.cert, 0o644);
  writeAtomically(path('rest-key.pem'), rest.key, 0o600);
  writeAtomically(path('rest.pem'), rest.cert, 0o644);
  writeAtomically(path('etcd-key.pem'), etcd.key, 0o600);
  writeAtomically(path('etcd.pem'), etcd.cert, 0o644);
  writeAtomically(path('etcd-client-key.pem'), etcdClient.key, 0o600);
  writeAtomically(path('etcd-client.pem'), etcdClient.cert, 0o644);
  let adminToken: string | undefined;
  if (!existsSync(path('tokens'))) {
    adminToken = newToken();
    writeAtomically(path('tokens'), `# weir tokens: sha256:<hex of token> <role> <name>; roles: viewer, submitter, operator, admin\n${tokensFileLine(adminToken, 'admin', 'admin')}`, 0o600);
  }
  return {
    dir: root,
    reusedCa,
    adminToken,
    etcd: { cert: path('etcd.pem'), key: path('etcd-key.pem'), ca: path('ca.pem') },
    keys: {
      'security.ssl.internal.enabled': 'true',
      'security.ssl.internal.cert': path('node.pem'),
      'security.ssl.internal.key': path('node-key.pem'),
      'security.ssl.internal.ca': path('ca.pem'),
      'security.ssl.rest.enabled': 'true',
      'security.ssl.rest.cert': path('rest.pem'),
      'security.ssl.rest.key': path('rest-key.pem'),
      'security.auth.tokens-file': path('tokens'),
      // Used only with high-availability.type: etcd (and https:// endpoints).
      'high-availability.etcd.tls.ca': path('ca.pem'),
      'high-availability.etcd.tls.cert': path('etcd-client.pem'),
      'high-availability.etcd.tls.key': path('etcd-client-key.pem'),
    },
  };
}
