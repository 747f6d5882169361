import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@weir/common';
import { haSettingsFromConfig, lookUpLeader, type LeaderInfo } from '@weir/ha';
import { startEtcd, type EtcdServer } from '@weir/ha/testing';
import { loadConfig } from '@weir/common';
import { createJobServiceClient, type JobDetails__Output, type JobSummary__Output, type ListCheckpointsResponse__Output } from '@weir/rpc';
import type { NetnsLab } from './netns.ts';
import { runWeir, WeirProcess, type RunResult } from './process.ts';
import { initClusterCredentials } from './security.ts';

/** Keys a client command takes (weir run refuses the cluster processes' own, such as heartbeat.interval). */
const CLIENT_KEY_PREFIXES = ['high-availability.', 'security.', 'jobmanager.rpc.'];

export interface HaClusterOptions {
  readonly jobManagers: number;
  readonly taskManagers: number;
  readonly slots: number;
  /** Each process (etcd, jm1.., tm1..) on its own host of the lab; without, all on 127.0.0.1. */
  readonly lab?: NetnsLab;
  /** high-availability.etcd.lease-ttl; default 3s (renewals every third of it). */
  readonly leaseTtlMs?: number;
  /** Extra config keys for every process. */
  readonly config?: Readonly<Record<string, string | number>>;
  /**
   * etcd over TLS, taking only clients with a certificate of the cluster's CA
   * (--client-cert-auth); every process and client gets high-availability.etcd.tls.*. The
   * files are `weir security init`'s.
   */
  readonly etcdTls?: boolean;
}

/**
 * A cluster with JobManager HA for tests: etcd, N JobManagers (one leads, the others stand
 * by) and M TaskManagers, real processes, each on its own network namespace when a lab is
 * given. Client commands find the leader through etcd as users' would.
 */
export class HaCluster {
  readonly jobManagers: WeirProcess[] = [];
  readonly taskManagers: WeirProcess[] = [];
  readonly #configArgs: string[];
  /** Each JobManager's gRPC port, kept across its restarts. */
  readonly #rpcPorts: number[];
  /** Each JobManager's REST port (never the demo's 8081), kept across its restarts as a deployment's would be. */
  readonly #restPorts: number[];

  private constructor(
    readonly dir: string,
    readonly etcd: EtcdServer,
    readonly lab: NetnsLab | undefined,
    readonly config: Readonly<Record<string, string | number>>,
    rpcPorts: number[],
    restPorts: number[],
    private readonly slots: number,
  ) {
    this.#configArgs = Object.entries(config).flatMap(([k, v]) => ['-D', `${k}=${v}`]);
    this.#rpcPorts = rpcPorts;
    this.#restPorts = restPorts;
  }

  static async start(options: HaClusterOptions): Promise<HaCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'weir-ha-'));
    const lab = options.lab;
    const etcdHost = lab === undefined ? {} : { host: lab.address('etcd'), prefix: lab.exec('etcd') };
    const credentials = options.etcdTls === true ? await initClusterCredentials(join(dir, 'security'), [etcdHost.host ?? '127.0.0.1']) : undefined;
    const files = join(dir, 'security');
    const etcd = await startEtcd({
      ...etcdHost,
      ...(credentials === undefined ? {} : { tls: { cert: join(files, 'etcd.pem'), key: join(files, 'etcd-key.pem'), ca: credentials.caPath, client: { cert: join(files, 'etcd-client.pem'), key: join(files, 'etcd-client-key.pem') } } }),
    });
    const leaseTtlMs = options.leaseTtlMs ?? 3_000;
    const config: Record<string, string | number> = {
      'high-availability.type': 'etcd',
      'high-availability.etcd.endpoints': etcd.endpoint,
      'high-availability.storageDir': join(dir, 'ha'),
      'high-availability.cluster-id': 'test',
      'high-availability.etcd.lease-ttl': leaseTtlMs,
      'high-availability.etcd.renew-interval': Math.floor(leaseTtlMs / 3),
      'heartbeat.interval': 500,
      'heartbeat.timeout': 5_000,
      // JobManagers and TaskManagers bind every address (other network namespaces reach them) without TLS: a test network.
      'security.insecure-bind-acknowledged': 'true',
      // The jobs name checkpoint and savepoint directories of their own below the temp dir.
      'state.savepoints.allowed-dirs': tmpdir(),
      // The jobs' FileSource inputs are there too.
      'jobmanager.user-code.read-paths': tmpdir(),
      ...credentials?.etcdKeys,
      ...options.config,
    };
    const rpcPorts: number[] = [];
    const restPorts: number[] = [];
    for (let i = 0; i < options.jobManagers; i++) {
      rpcPorts.push(await freePort());
      restPorts.push(await freePort());
    }
    const cluster = new HaCluster(dir, etcd, lab, config, rpcPorts, restPorts, options.slots);
    try {
      for (let i = 1; i <= options.jobManagers; i++) cluster.startJobManager(i);
      await Promise.all(cluster.jobManagers.map((jm) => jm.waitForOutput(/JobManager listening/)));
      await cluster.leader(30_000);
      await Promise.all(Array.from({ length: options.taskManagers }, (_, i) => cluster.startTaskManager(i + 1)));
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /**
   * Starts (or restarts) JobManager `index` (1-based) on host jm<index>. It binds its host's
   * address: Weir's loopback default would keep the lab's other hosts out.
   */
  startJobManager(index: number, extra: Readonly<Record<string, string | number>> = {}): WeirProcess {
    const host = this.#host(`jm${index}`);
    const port = this.#rpcPorts[index - 1]!;
    const jm = new WeirProcess(
      `jm${index}`,
      ['jobmanager', ...this.#configArgs, ...props({ 'jobmanager.rpc.address': host.address, 'jobmanager.bind-host': host.address, 'rest.bind-address': host.address, 'jobmanager.rpc.port': port, 'rest.port': this.#restPorts[index - 1]!, 'blob.storage.directory': join(this.dir, `jm${index}-blobs`), ...extra })],
      join(this.dir, `jm${index}.log`),
      [],
      host.prefix,
    );
    this.jobManagers[index - 1] = jm;
    return jm;
  }

  /** JobManager `index`'s gRPC address, as it publishes it in etcd when it leads. */
  address(index: number): string {
    return `${this.#host(`jm${index}`).address}:${this.#rpcPorts[index - 1]}`;
  }

  /** GET `path` from the REST API of JobManager `index`, leader or standby; the body parsed as JSON. */
  async rest(index: number, path: string): Promise<{ status: number; body: Record<string, any> }> {
    const response = await fetch(`${this.restUrl(index)}${path}`, { signal: AbortSignal.timeout(10_000) });
    return { status: response.status, body: await response.json() };
  }

  /** The base URL of JobManager `index`'s REST API: https:// with security.ssl.rest.enabled (its certificate names the address). */
  restUrl(index: number): string {
    const scheme = String(this.config['security.ssl.rest.enabled']) === 'true' ? 'https' : 'http';
    return `${scheme}://${this.#host(`jm${index}`).address}:${this.#restPorts[index - 1]}`;
  }

  /** Starts TaskManager `index` (1-based) on host tm<index>; resolves once it registered with the leader. */
  async startTaskManager(index: number): Promise<WeirProcess> {
    const host = this.#host(`tm${index}`);
    const tm = new WeirProcess(
      `tm${index}`,
      ['taskmanager', ...this.#configArgs, ...props({ 'taskmanager.host': host.address, 'taskmanager.bind-host': host.address, 'taskmanager.numberOfTaskSlots': this.slots, 'taskmanager.resource-id': `tm-${index}` })],
      join(this.dir, `tm${index}.log`),
      [],
      host.prefix,
    );
    this.taskManagers[index - 1] = tm;
    await tm.waitForOutput(/registered with the JobManager/);
    return tm;
  }

  /** The leader etcd names now, waiting up to `timeoutMs` for one. */
  async leader(timeoutMs = 30_000): Promise<LeaderInfo & { process: WeirProcess }> {
    const settings = haSettingsFromConfig(loadConfig({ dynamic: stringValues(this.config) }), 'client')!;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const info = await lookUpLeader(settings, Math.max(1_000, deadline - Date.now()));
      const process = this.jobManagers.find((jm, i) => jm.running && info.address === this.address(i + 1));
      if (process !== undefined) return { ...info, process };
      if (Date.now() > deadline) throw new Error(`etcd names ${info.address} (epoch ${info.epoch}) as leader, which is none of the running JobManagers`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Runs a client command of the CLI with the cluster's connection keys (HA, security), so it finds the leader in etcd. */
  weir(args: readonly string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
    const [command, ...rest] = args;
    const client = Object.entries(this.config).filter(([key]) => CLIENT_KEY_PREFIXES.some((prefix) => key.startsWith(prefix)));
    return runWeir([command!, ...client.flatMap(([k, v]) => ['-D', `${k}=${v}`]), ...rest], options);
  }

  /** GetJob on whichever JobManager leads now; retries through a failover. */
  async job(jobId: string, timeoutMs = 60_000): Promise<JobDetails__Output> {
    return this.#onLeader(timeoutMs, (client, done) => client.getJob({ jobId }, { deadline: Date.now() + 5_000 }, done));
  }

  async checkpoints(jobId: string, timeoutMs = 60_000): Promise<ListCheckpointsResponse__Output> {
    return this.#onLeader(timeoutMs, (client, done) => client.listCheckpoints({ jobId }, { deadline: Date.now() + 5_000 }, done));
  }

  async list(timeoutMs = 60_000): Promise<JobSummary__Output[]> {
    const response = await this.#onLeader<{ jobs: JobSummary__Output[] }>(timeoutMs, (client, done) => client.listJobs({}, { deadline: Date.now() + 5_000 }, done));
    return response.jobs;
  }

  /** Polls the job through the leader until its status is one of `statuses`. */
  async waitForStatus(jobId: string, statuses: readonly string[], timeoutMs = 120_000): Promise<JobDetails__Output> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const details = await this.job(jobId, Math.max(1_000, deadline - Date.now()));
      if (statuses.includes(details.summary!.status)) return details;
      if (Date.now() > deadline) throw new Error(`job ${jobId} is ${details.summary!.status}, expected ${statuses.join('|')}: ${details.failureCause}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Stops every process, then etcd (its data removed); the lab stays for the caller to destroy. */
  async stop(): Promise<void> {
    await Promise.all([...this.taskManagers, ...this.jobManagers].map((p) => p?.stop()));
    await this.etcd.remove();
  }

  logs(): string {
    return [...this.jobManagers, ...this.taskManagers].filter((p) => p !== undefined).map((p) => `--- ${p.name}\n${p.output.slice(-5000)}`).join('\n') + `\n--- etcd\n${this.etcd.output.slice(-2000)}`;
  }

  async #onLeader<T>(timeoutMs: number, call: (client: ReturnType<typeof createJobServiceClient>, done: (err: Error | null, value?: T) => void) => void): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    while (Date.now() < deadline) {
      try {
        const { address } = await this.leader(Math.max(1_000, deadline - Date.now()));
        const client = createJobServiceClient(address);
        try {
          return await new Promise<T>((resolve, reject) => call(client, (err, value) => (err ? reject(err) : resolve(value as T))));
        } finally {
          client.close();
        }
      } catch (err) {
        lastError = err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    throw new Error(`no leader answered within ${timeoutMs} ms: ${(lastError as Error)?.message}`);
  }

  #host(name: string): { address: string; prefix: string[] } {
    if (this.lab === undefined) return { address: '127.0.0.1', prefix: [] };
    return { address: this.lab.address(name), prefix: this.lab.exec(name) };
  }
}

function props(values: Readonly<Record<string, string | number>>): string[] {
  return Object.entries(values).flatMap(([k, v]) => ['-D', `${k}=${v}`]);
}

function stringValues(values: Readonly<Record<string, string | number>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
}
