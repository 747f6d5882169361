import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@weir/common';

export interface EtcdServerOptions {
  /** Address etcd listens on; default 127.0.0.1. */
  readonly host?: string;
  /** Client and peer ports; default free ones on `host`. */
  readonly clientPort?: number;
  readonly peerPort?: number;
  /** Data directory; default a fresh temp directory, removed by `remove()`. */
  readonly dataDir?: string;
  /** Runs etcd through this command prefix, e.g. ['ip', 'netns', 'exec', 'ns1']. */
  readonly prefix?: readonly string[];
  /**
   * Serve clients over TLS with this certificate, and take only clients showing a certificate
   * `ca` signed (--client-cert-auth); `client` is such a certificate, for the health check.
   */
  readonly tls?: EtcdTls;
}

export interface EtcdTls {
  readonly cert: string;
  readonly key: string;
  readonly ca: string;
  readonly client: { readonly cert: string; readonly key: string };
}

export interface EtcdServer {
  /** http://host:clientPort, or https:// with `tls` */
  readonly endpoint: string;
  readonly dataDir: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  /** etcd's output so far, for a failing test's message. */
  readonly output: string;
  /** SIGTERM, then SIGKILL after 5 s; the data directory stays, so `restart()` brings back every key and lease. */
  stop(): Promise<void>;
  /** SIGKILL. */
  kill(): Promise<void>;
  restart(): Promise<void>;
  /** Stops etcd and deletes its data directory. */
  remove(): Promise<void>;
}

/** Debian's etcd (apt `etcd-server`), started for a test on free ports with its own data directory. */
export async function startEtcd(options: EtcdServerOptions = {}): Promise<EtcdServer> {
  const host = options.host ?? '127.0.0.1';
  // Free on this host's loopback; a fresh network namespace has every port free anyway.
  const clientPort = options.clientPort ?? (await freePort());
  const peerPort = options.peerPort ?? (await freePort());
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'weir-etcd-'));
  const endpoint = `${options.tls === undefined ? 'http' : 'https'}://${host}:${clientPort}`;
  const peer = `http://${host}:${peerPort}`;
  const tls = options.tls;
  const args = [
    '--name', 'weir-test',
    '--data-dir', dataDir,
    '--listen-client-urls', endpoint,
    '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peer,
    '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `weir-test=${peer}`,
    '--log-level', 'warn',
    '--logger', 'zap',
    ...(tls === undefined ? [] : ['--cert-file', tls.cert, '--key-file', tls.key, '--trusted-ca-file', tls.ca, '--client-cert-auth']),
  ];
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';
  const launch = async (): Promise<void> => {
    const [command, ...rest] = [...(options.prefix ?? []), etcdBinary(), ...args];
    const proc = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    await waitHealthy(endpoint, proc, () => output, tls);
  };
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (!running()) return;
    child!.kill(signal);
    const killer = setTimeout(() => child?.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };
  await launch();
  return {
    endpoint,
    dataDir,
    get pid() {
      return child?.pid;
    },
    get running() {
      return running();
    },
    get output() {
      return output;
    },
    stop: () => stop('SIGTERM'),
    kill: () => stop('SIGKILL'),
    async restart() {
      await stop('SIGTERM');
      await launch();
    },
    async remove() {
      await stop('SIGTERM');
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `WEIR_ETCD_BINARY` or Debian's path. */
export function etcdBinary(): string {
  return process.env.WEIR_ETCD_BINARY ?? '/usr/bin/etcd';
}

async function waitHealthy(endpoint: string, proc: ChildProcess, output: () => string, tls: EtcdTls | undefined): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`etcd exited before it served ${endpoint}:\n${output()}`);
    try {
      if ((await health(endpoint, tls)) === 'true') return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`etcd did not become healthy at ${endpoint} within 20 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** etcd's /health answer (`'true'` when healthy); over TLS with the client certificate, which fetch cannot show. */
async function health(endpoint: string, tls: EtcdTls | undefined): Promise<string | undefined> {
  if (tls === undefined) {
    const response = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1_000) });
    return response.ok ? ((await response.json()) as { health?: string }).health : undefined;
  }
  return new Promise((resolve, reject) => {
    const req = request(`${endpoint}/health`, { ca: readFileSync(tls.ca), cert: readFileSync(tls.client.cert), key: readFileSync(tls.client.key), timeout: 1_000 }, (response) => {
      let body = '';
      response.on('data', (d: Buffer) => (body += d.toString()));
      response.on('end', () => resolve(response.statusCode === 200 ? (JSON.parse(body) as { health?: string }).health : undefined));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}
