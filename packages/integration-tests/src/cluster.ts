import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJobServiceClient, grpc, type ClientTls, type JobServiceClient } from '@weir/rpc';
import { freePort } from '@weir/cli';
import { runWeir, WeirProcess, type RunResult } from './process.ts';

export interface ClusterOptions {
  readonly taskManagers: number;
  readonly slots: number;
  /** Extra config keys for every process, as `-D key=value`. */
  readonly config?: Readonly<Record<string, string | number>>;
  /** Extra node flags for the TaskManager processes (--cpu-prof for a profile, say). */
  readonly taskManagerNodeArgs?: readonly string[];
  /** Every process serves Prometheus metrics on a free port of its own (`metricsUrl`). */
  readonly prometheus?: boolean;
  /** TLS of the test's own gRPC clients (`client`, the start-up wait) when the JobManager speaks TLS (security.ssl.internal.*). */
  readonly clientTls?: ClientTls;
}

/**
 * A real cluster for tests and benchmarks: one `weir jobmanager` and N `weir taskmanager`
 * processes, each started with the same CLI command and -D keys the local cluster and the
 * compose file use, on free ports, with logs in a temporary directory.
 */
export class ProcessCluster {
  readonly taskManagers: WeirProcess[] = [];
  #nextTaskManager = 0;
  readonly #metricsPorts = new Map<WeirProcess, number>();
  #client: JobServiceClient | undefined;

  private constructor(
    readonly dir: string,
    readonly jobManager: WeirProcess,
    readonly jobManagerAddress: string,
    private readonly configArgs: readonly string[],
    readonly slots: number,
    private readonly taskManagerNodeArgs: readonly string[],
    /** Base URL of the JobManager's REST API and dashboard, e.g. http://127.0.0.1:40123. */
    readonly restUrl: string,
    private readonly prometheus: boolean,
    private readonly clientTls: ClientTls | undefined,
  ) {}

  static async start(options: ClusterOptions): Promise<ProcessCluster> {
    // A free port is chosen here and bound by the JobManager a moment later: another process
    // of the machine can take it in between. Only then is the start tried again, on new ports.
    for (let attempt = 1; ; attempt++) {
      try {
        return await ProcessCluster.#start(options);
      } catch (err) {
        if (attempt >= BIND_ATTEMPTS || !(err instanceof PortTakenError)) throw err;
      }
    }
  }

  static async #start(options: ClusterOptions): Promise<ProcessCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'weir-cluster-'));
    const port = await freePort();
    const restPort = await freePort();
    const config: Record<string, string | number> = {
      'jobmanager.rpc.address': '127.0.0.1',
      'jobmanager.rpc.port': port,
      'rest.bind-address': '127.0.0.1',
      'rest.port': restPort,
      'taskmanager.host': '127.0.0.1',
      'blob.storage.directory': join(dir, 'blobs'),
      'heartbeat.interval': 500,
      'heartbeat.timeout': 5_000,
      // Tests name savepoint directories of their own below the temp dir; a test of the
      // confinement itself narrows this.
      'state.savepoints.allowed-dirs': tmpdir(),
      // The jobs' FileSource inputs are there too.
      'jobmanager.user-code.read-paths': tmpdir(),
      ...options.config,
    };
    const configArgs = Object.entries(config).flatMap(([k, v]) => ['-D', `${k}=${v}`]);
    const jobManagerMetrics = options.prometheus === true ? await freePort() : undefined;
    const jobManager = new WeirProcess('jobmanager', ['jobmanager', ...configArgs, ...metricsArgs(jobManagerMetrics)], join(dir, 'jobmanager.log'));
    const cluster = new ProcessCluster(
      dir,
      jobManager,
      `127.0.0.1:${port}`,
      configArgs,
      options.slots,
      options.taskManagerNodeArgs ?? [],
      `http://127.0.0.1:${config['rest.port']}`,
      options.prometheus === true,
      options.clientTls,
    );
    if (jobManagerMetrics !== undefined) cluster.#metricsPorts.set(jobManager, jobManagerMetrics);
    try {
      await cluster.#waitForJobManager();
      await Promise.all(Array.from({ length: options.taskManagers }, () => cluster.startTaskManager()));
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** Starts one more TaskManager and resolves once it has registered. */
  async startTaskManager(): Promise<WeirProcess> {
    const index = ++this.#nextTaskManager;
    const metricsPort = this.prometheus ? await freePort() : undefined;
    const tm = new WeirProcess(
      `taskmanager-${index}`,
      ['taskmanager', ...this.configArgs, '-D', `taskmanager.numberOfTaskSlots=${this.slots}`, '-D', `taskmanager.resource-id=tm-${index}`, ...metricsArgs(metricsPort)],
      join(this.dir, `taskmanager-${index}.log`),
      this.taskManagerNodeArgs,
    );
    this.taskManagers.push(tm);
    if (metricsPort !== undefined) this.#metricsPorts.set(tm, metricsPort);
    await tm.waitForOutput(/registered with the JobManager/);
    return tm;
  }

  /** SIGKILLs a TaskManager (the first live one unless given) and waits until it is gone. */
  async killTaskManager(tm: WeirProcess | undefined = this.taskManagers.find((p) => p.running)): Promise<WeirProcess> {
    if (tm === undefined) throw new Error('no live TaskManager to kill');
    tm.kill('SIGKILL');
    await tm.exited;
    return tm;
  }

  /** `http://127.0.0.1:<port>/metrics` of a process of a cluster started with `prometheus: true`. */
  metricsUrl(process: WeirProcess): string {
    const port = this.#metricsPorts.get(process);
    if (port === undefined) throw new Error(`${process.name} serves no Prometheus metrics: start the cluster with prometheus: true`);
    return `http://127.0.0.1:${port}/metrics`;
  }

  get liveTaskManagers(): WeirProcess[] {
    return this.taskManagers.filter((p) => p.running);
  }

  get client(): JobServiceClient {
    this.#client ??= createJobServiceClient(this.jobManagerAddress, {}, this.clientTls);
    return this.#client;
  }

  /** Runs a client command of the CLI against this cluster's JobManager. */
  weir(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string } = {}): Promise<RunResult> {
    const [command, ...rest] = args;
    return runWeir([command!, '-m', this.jobManagerAddress, ...rest], options);
  }

  async stop(): Promise<void> {
    this.#client?.close();
    await Promise.all(this.taskManagers.map((tm) => tm.stop()));
    await this.jobManager.stop();
  }

  /** Every process's output, for a failing test's message. */
  logs(): string {
    return [this.jobManager, ...this.taskManagers].map((p) => `--- ${p.name}\n${p.output.slice(-4000)}`).join('\n');
  }

  async #waitForJobManager(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const client = createJobServiceClient(this.jobManagerAddress, {}, this.clientTls);
      const ok = await new Promise<boolean>((resolve) => {
        // With authentication on, a call without a token is refused: the JobManager answers, so it is up.
        client.listJobs({}, { deadline: Date.now() + 1_000 }, (err) => resolve(!err || err.code === grpc.status.UNAUTHENTICATED));
      });
      client.close();
      if (ok) return;
      if (!this.jobManager.running) {
        const message = `jobmanager exited:\n${this.jobManager.output}`;
        throw PORT_TAKEN.test(this.jobManager.output) ? new PortTakenError(message) : new Error(message);
      }
      if (Date.now() > deadline) throw new Error(`jobmanager not reachable at ${this.jobManagerAddress}:\n${this.jobManager.output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Starts of a cluster whose JobManager found a chosen port taken, before the test fails. */
const BIND_ATTEMPTS = 3;
/** The JobManager's BIND_FAILED message. */
const PORT_TAKEN = /is already in use|EADDRINUSE/;

/** The JobManager exited at start because a port chosen for it was taken meanwhile. */
class PortTakenError extends Error {}

function metricsArgs(port: number | undefined): string[] {
  return port === undefined ? [] : ['-D', `metrics.reporter.prom.port=${port}`];
}
