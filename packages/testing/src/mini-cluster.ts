import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort, isGloballyTerminal, JobStatus, systemClock, WeirError } from '@weir/common';
import { silentLogger } from '@weir/common/testing';
import { bundleJob, JobClient, LocalCluster } from '@weir/cli';
import { COLLECT_DIR_ENV } from './collect/collect-sink.ts';
import { readCollected } from './collect/read-collected.ts';
import { TestingErrorCode } from './errors.ts';
import { InProcessJobs, type JobFunction } from './in-process/in-process-jobs.ts';

/** How a MiniCluster runs: its mode, TaskManagers, slots and configuration. */
export interface MiniClusterOptions {
  /**
   * `'processes'` (default): a JobManager and TaskManagers as real local processes.
   * `'in-process'`: the job's tasks run in the test's own process (faster to start, a job may
   * be a function; failover by `failTask` from in-memory checkpoints; no savepoints, no killTaskManager).
   */
  readonly mode?: 'processes' | 'in-process';
  /** TaskManager processes (default 1). */
  readonly taskManagers?: number;
  /** Slots per TaskManager (default 2). */
  readonly slots?: number;
  /** Config keys for every process, as `-D key=value` (e.g. `{ 'parallelism.default': '2' }`). */
  readonly config?: Readonly<Record<string, string>>;
}

/** How `MiniCluster.execute` runs a job: its args, parallelism and the savepoint it starts from. */
export interface ExecuteOptions {
  /** The job's main's args. */
  readonly args?: readonly string[];
  /** The job's default parallelism; the cluster's when unset. */
  readonly parallelism?: number;
  /** Start from this savepoint (a path `triggerSavepoint` returned); processes mode only. */
  readonly savepointPath?: string;
}

/** The one in-process MiniCluster of this process that is running: CollectSink finds its directory through process.env. */
let inProcessRunning: MiniCluster | undefined;

/** Lines a process printed last: quoted when the cluster fails to start or a job fails. */
const KEPT_LINES = 40;

/**
 * A Weir cluster for tests (Flink's MiniCluster with MiniClusterWithClientResource): one
 * JobManager and `taskManagers` TaskManagers as real local processes, started by the same
 * code as `weir cluster start`, on free ports, with their files in a temporary directory. A
 * job runs as in production: `execute` bundles the job module as `weir run` does and submits
 * it. Processes rather than one in-process runtime, so a test sees what a deployment does
 * (serialization between TaskManagers, restarts after a TaskManager dies) and can kill one.
 */
export class MiniCluster {
  readonly #options: Required<Pick<MiniClusterOptions, 'taskManagers' | 'slots'>> & MiniClusterOptions;
  readonly #lines: string[] = [];
  #dir: string | undefined;
  #cluster: LocalCluster | undefined;
  #client: JobClient | undefined;
  #inProcess: InProcessJobs | undefined;
  #previousCollectDir: string | undefined;

  constructor(options: MiniClusterOptions = {}) {
    this.#options = { taskManagers: 1, slots: 2, ...options };
  }

  /** Whether the jobs run in this process (`mode: 'in-process'`). */
  get inProcess(): boolean {
    return this.#options.mode === 'in-process';
  }

  /** Where CollectSinks of this cluster's jobs write. */
  get collectDir(): string {
    if (this.#inProcess !== undefined && this.#dir !== undefined) return join(this.#dir, 'collect');
    return join(this.#running().dir, 'collect');
  }

  /** The JobManager's gRPC address (host:port), for `weir run -m`. */
  get jobManagerAddress(): string {
    this.#refuseInProcess('jobManagerAddress');
    return this.#running().cluster.jobManagerAddress;
  }

  /** Starts the processes; resolves once every TaskManager has registered. */
  async start(): Promise<void> {
    if (this.inProcess) return this.#startInProcess();
    const dir = mkdtempSync(join(tmpdir(), 'weir-minicluster-'));
    const [rpcPort, restPort] = [await freePort(), await freePort()];
    try {
      this.#cluster = await LocalCluster.start({
        taskManagers: this.#options.taskManagers,
        slots: this.#options.slots,
        dir,
        dynamic: {
          'jobmanager.rpc.address': '127.0.0.1',
          'jobmanager.rpc.port': String(rpcPort),
          'jobmanager.bind-host': '127.0.0.1',
          'rest.bind-address': '127.0.0.1',
          'rest.port': String(restPort),
          'taskmanager.host': '127.0.0.1',
          'taskmanager.bind-host': '127.0.0.1',
          'state.savepoints.allowed-dirs': tmpdir(),
          // A test's FileSource inputs: below the temp dir or the project the test runs in.
          'jobmanager.user-code.read-paths': [tmpdir(), process.cwd()].join(','),
          ...this.#options.config,
        },
        env: { ...process.env, [COLLECT_DIR_ENV]: join(dir, 'collect') },
        cwd: dir,
        clock: systemClock,
        logger: silentLogger(),
        onLine: (name, _stream, line) => {
          this.#lines.push(`${name}: ${line}`);
          if (this.#lines.length > KEPT_LINES) this.#lines.shift();
        },
      });
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw new WeirError((err as WeirError).code ?? 'INTERNAL', `the MiniCluster did not start: ${(err as Error).message}\n${this.#lines.join('\n')}`, { cause: err });
    }
    this.#dir = dir;
    this.#client = JobClient.connect(this.#cluster.jobManagerAddress);
  }

  /**
   * Bundles the job module (a path, or a file: URL such as `new URL('./job.ts', import.meta.url)`)
   * as `weir run` does, submits it and resolves once it is accepted: `result()` of the returned
   * execution waits for it to end.
   */
  async execute(job: string | URL | JobFunction, options: ExecuteOptions = {}): Promise<JobExecution> {
    if (this.inProcess) return this.#executeInProcess(this.#runningInProcess(), job, options);
    if (typeof job === 'function') {
      throw new WeirError(TestingErrorCode.MODE_UNSUPPORTED, "execute(fn): a job function runs only in an in-process MiniCluster ({ mode: 'in-process' }); the processes mode takes the job's module (its path or file: URL), which every TaskManager loads");
    }
    const { client, dir } = this.#running();
    const path = job instanceof URL ? fileURLToPath(job) : resolve(job);
    const bundle = await bundleJob(path);
    const { jobId } = await client.submit({
      bundle: Buffer.from(bundle.code),
      entryName: bundle.entryName,
      args: [...(options.args ?? [])],
      parallelism: options.parallelism ?? 0,
      savepointPath: options.savepointPath ?? '',
      allowNonRestoredState: false,
      configuration: {},
    });
    return new JobExecution(jobId, client, join(dir, 'collect'), () => this.#lines.join('\n'));
  }

  /**
   * A checkpoint of job `jobId` taken now (Flink's MiniCluster.triggerCheckpoint), resolved with
   * its ID once it completed: sinks committed what came before it (CollectSink's records become
   * readable). Processes mode: the JobManager's on-demand checkpoint (`weir checkpoint`); the job
   * must enable checkpointing (else CHECKPOINTING_NOT_ENABLED) and be RUNNING (else JOB_NOT_RUNNING).
   */
  async triggerCheckpoint(jobId: string): Promise<number> {
    if (this.inProcess) return this.#runningInProcess().triggerCheckpoint(jobId);
    const { checkpointId } = await this.#running().client.triggerCheckpoint({ jobId, checkpointType: 'CONFIGURED' });
    return Number(checkpointId);
  }

  /**
   * A savepoint of the running job, restored with `execute(job, { savepointPath })`;
   * `stop: true` stops the job with it. Resolves with its path. Processes mode only.
   */
  async triggerSavepoint(jobId: string, options: { readonly stop?: boolean } = {}): Promise<string> {
    this.#refuseInProcess('triggerSavepoint');
    const response = await this.#running().client.triggerSavepoint({ jobId, targetDirectory: '', terminate: options.stop === true ? 'STOP' : '', drain: false });
    return response.savepointPath;
  }

  /**
   * Fails subtask `subtask` (default 0) of job `jobId`'s vertex named `vertexName` (or whose
   * name contains it, as `numbers` for `Source: numbers`) as if it threw: the job fails over by
   * its restart strategy, every task restarting from the latest completed checkpoint, kept in
   * memory (Flink's MiniCluster failover). In-process only (no Flink counterpart: Flink tests
   * throw from a function); with processes, killTaskManager fails tasks from outside.
   */
  failTask(jobId: string, vertexName: string, subtask = 0): void {
    if (!this.inProcess) throw new WeirError(TestingErrorCode.MODE_UNSUPPORTED, 'failTask needs the in-process MiniCluster; with processes, killTaskManager(index) fails the tasks of a TaskManager');
    this.#runningInProcess().failTask(jobId, vertexName, subtask);
  }

  /**
   * SIGKILLs TaskManager `index` (1-based): its tasks fail, the job restarts from its latest
   * checkpoint by its restart strategy, and the cluster starts the TaskManager again after 2 s
   * (as `weir cluster start` does). Flink's MiniCluster#terminateTaskManager; the way a test
   * fails a task from outside the job.
   */
  killTaskManager(index: number): void {
    this.#refuseInProcess('killTaskManager');
    const { cluster } = this.#running();
    const pid = Number.isInteger(index) && index >= 1 && index <= this.#options.taskManagers ? cluster.supervisor.pid(`taskmanager-${index}`) : undefined;
    if (pid === undefined) {
      throw new WeirError(TestingErrorCode.NO_SUCH_TASKMANAGER, `killTaskManager(${index}): the cluster has TaskManagers 1..${this.#options.taskManagers}, and this one is not running`);
    }
    process.kill(pid, 'SIGKILL');
  }

  /** Stops every process and removes the cluster's files. */
  async close(): Promise<void> {
    if (this.#inProcess !== undefined) {
      if (this.#previousCollectDir === undefined) delete process.env[COLLECT_DIR_ENV];
      else process.env[COLLECT_DIR_ENV] = this.#previousCollectDir;
      inProcessRunning = undefined;
      this.#inProcess = undefined;
    }
    this.#client?.close();
    await this.#cluster?.stop();
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true });
    this.#client = undefined;
    this.#cluster = undefined;
    this.#dir = undefined;
  }

  async #startInProcess(): Promise<void> {
    if (inProcessRunning !== undefined) {
      throw new WeirError(TestingErrorCode.IN_PROCESS_CLUSTER_RUNNING, 'another in-process MiniCluster runs in this process: close it first (CollectSink finds its directory through the process environment)');
    }
    inProcessRunning = this;
    this.#dir = mkdtempSync(join(tmpdir(), 'weir-minicluster-'));
    this.#previousCollectDir = process.env[COLLECT_DIR_ENV];
    process.env[COLLECT_DIR_ENV] = join(this.#dir, 'collect');
    this.#inProcess = new InProcessJobs(this.#options.taskManagers);
  }

  async #executeInProcess(jobs: InProcessJobs, job: string | URL | JobFunction, options: ExecuteOptions): Promise<JobExecution> {
    if (options.savepointPath !== undefined) this.#refuseInProcess('execute(job, { savepointPath })');
    let main: JobFunction;
    if (typeof job === 'function') main = job;
    else {
      const url = job instanceof URL ? job.href : pathToFileURL(resolve(job)).href;
      main = ((await import(url)) as { default: JobFunction }).default;
      if (typeof main !== 'function') throw new WeirError(TestingErrorCode.MODE_UNSUPPORTED, `${url} has no default export function (the job's main)`);
    }
    const jobId = await jobs.submit(main, { args: options.args ?? [], ...(options.parallelism === undefined ? {} : { parallelism: options.parallelism }) });
    return new JobExecution(jobId, jobs, this.collectDir, () => '(in-process: the tasks log nothing)');
  }

  #runningInProcess(): InProcessJobs {
    if (this.#inProcess === undefined) throw new WeirError(TestingErrorCode.CLUSTER_NOT_RUNNING, 'the MiniCluster is not running: await cluster.start() first (and not after close())');
    return this.#inProcess;
  }

  #refuseInProcess(what: string): void {
    if (this.inProcess) throw new WeirError(TestingErrorCode.MODE_UNSUPPORTED, `${what} needs the processes MiniCluster (there is no JobManager or TaskManager process in-process)`);
  }

  #running(): { cluster: LocalCluster; client: JobClient; dir: string } {
    if (this.#cluster === undefined || this.#client === undefined || this.#dir === undefined) {
      throw new WeirError(TestingErrorCode.CLUSTER_NOT_RUNNING, 'the MiniCluster is not running: await cluster.start() first (and not after close())');
    }
    return { cluster: this.#cluster, client: this.#client, dir: this.#dir };
  }
}

/** What a JobExecution asks the JobManager (the CLI's JobClient), kept to this so the published types need no @weir/cli. */
export interface JobServiceCalls {
  /** The job's status changes until it ends. */
  watch(jobId: string): AsyncIterable<{ readonly status: string; readonly failureCause: string }>;
  /** Cancels the job; resolves with the status it reached. */
  cancel(jobId: string): Promise<string>;
}

/** A job a MiniCluster runs. */
export class JobExecution {
  /** The statuses `result()` saw the job pass through, in order (RESTARTING after each failover). */
  readonly statuses: string[] = [];

  constructor(
    readonly jobId: string,
    private readonly client: JobServiceCalls,
    private readonly collectDir: string,
    private readonly recentLines: () => string,
  ) {}

  /** Resolves when the job FINISHED; throws JOB_FAILED with its cause when it ends otherwise. */
  async result(): Promise<void> {
    let last = '';
    for await (const update of this.client.watch(this.jobId)) {
      last = update.status;
      this.statuses.push(update.status);
      if (!isGloballyTerminal(update.status as JobStatus)) continue;
      if (update.status === JobStatus.FINISHED) return;
      throw new WeirError(TestingErrorCode.JOB_FAILED, `job ${this.jobId} ended ${update.status}: ${update.failureCause}\nlast lines of the cluster:\n${this.recentLines()}`);
    }
    throw new WeirError(TestingErrorCode.JOB_FAILED, `lost track of job ${this.jobId} while it was ${last || 'unknown'}`);
  }

  /** What CollectSink `name` of this cluster committed so far (see CollectSink). */
  collected<T>(name: string): T[] {
    return readCollected<T>(this.collectDir, name);
  }

  /** Cancels the job (Flink's JobClient.cancel); resolves with the status it reached. */
  cancel(): Promise<string> {
    return this.client.cancel(this.jobId);
  }
}
