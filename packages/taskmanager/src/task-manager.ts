import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import type { Clock, Logger, WeirConfig } from '@weir/common';
import { followLeader, haSettingsFromConfig } from '@weir/ha';
import { encodeMetricsReport } from '@weir/rpc';
import { ClusterSecurity, authenticationEnabled, checkExposure, warnCleartextMetrics } from '@weir/security';
import { levelTuning, type PartitionRegistryLike } from '@weir/runtime';
import { s3SettingsFromConfig, StoragePool } from '@weir/storage';
import { JobManagerConnection } from './control/connection.ts';
import type { ControlStateName } from './control/context.ts';
import { JobManagerTargets } from './control/jobmanager-targets.ts';
import { startDataServer, type DataServer } from './data/data-server.ts';
import { PeerReports } from './data/peer-reports.ts';
import { GrpcRemoteConnector } from './data/remote-connector.ts';
import { startLivenessEndpoint, type LivenessEndpoint } from './liveness/liveness-endpoint.ts';
import { BundleCache, fetchBundleFrom } from './deploy/bundle-cache.ts';
import { Deployer } from './deploy/deployer.ts';
import type { JobLoader, TaskFactory } from './deploy/types.ts';
import { TaskManagerMetrics } from './metrics/taskmanager-metrics.ts';
import { TaskMetricsTracker } from './metrics/task-metrics-tracker.ts';
import { LocalStateDir } from './local-state/local-state-dir.ts';
import { taskManagerListeners } from './security-listeners.ts';

export interface TaskManagerHandle {
  readonly taskManagerId: string;
  /** host:port other TaskManagers read this one's partitions at. */
  readonly dataAddress: string;
  /** Cancels all tasks and stops the servers and the control stream. */
  close(): Promise<void>;
}

/** The parts a TaskManager runs with; tests substitute doubles for the runtime's. */
export interface TaskManagerParts {
  readonly logger: Logger;
  readonly clock: Clock;
  readonly partitions: PartitionRegistryLike;
  readonly createTask: TaskFactory;
  readonly createJobLoader: (bundles: BundleCache) => JobLoader;
  /**
   * Called once registered: loads, in the background, what deployments need and registration
   * does not (the modules job bundles get), so that a spare TaskManager's first deployment,
   * often a failover's, does not wait for them, and they do not delay registration.
   */
  readonly prepareForJobs?: () => void;
  /** The liveness endpoint, when the process started it already (as `weir taskmanager` does, before loading this package); else start() does. */
  readonly liveness?: Promise<LivenessEndpoint>;
}

/** A running TaskManager: data server, control stream and the tasks it was given. */
export class TaskManager implements TaskManagerHandle {
  readonly taskManagerId: string;
  readonly dataAddress: string;
  readonly #logger: Logger;
  readonly #dataServer: DataServer;
  readonly #liveness: LivenessEndpoint;
  readonly #remote: GrpcRemoteConnector;
  readonly #connection: JobManagerConnection;
  readonly #deployer: Deployer;
  readonly #storages: StoragePool;
  readonly #metrics: TaskManagerMetrics;
  readonly #localState: LocalStateDir;
  readonly #closeClient: () => void;
  #closing: Promise<void> | undefined;

  private constructor(fields: {
    taskManagerId: string;
    dataAddress: string;
    logger: Logger;
    dataServer: DataServer;
    liveness: LivenessEndpoint;
    remote: GrpcRemoteConnector;
    connection: JobManagerConnection;
    deployer: Deployer;
    storages: StoragePool;
    metrics: TaskManagerMetrics;
    localState: LocalStateDir;
    closeClient: () => void;
  }) {
    this.taskManagerId = fields.taskManagerId;
    this.dataAddress = fields.dataAddress;
    this.#logger = fields.logger;
    this.#dataServer = fields.dataServer;
    this.#liveness = fields.liveness;
    this.#remote = fields.remote;
    this.#connection = fields.connection;
    this.#deployer = fields.deployer;
    this.#storages = fields.storages;
    this.#metrics = fields.metrics;
    this.#localState = fields.localState;
    this.#closeClient = fields.closeClient;
  }

  /** Binds the data server (a port in use rejects with BIND_FAILED), then connects to the JobManager in the background. */
  static async start(config: WeirConfig, parts: TaskManagerParts): Promise<TaskManager> {
    const ha = haSettingsFromConfig(config, 'client');
    const configuredAddress = `${config['jobmanager.rpc.address']}:${config['jobmanager.rpc.port']}`;
    // First, so that its client connects to the JobManager while the data server binds.
    const heartbeatTimeoutMs = config['heartbeat.timeout'];
    // Before anything connects or binds: an exposed data port without mutual TLS does not start.
    const security = ClusterSecurity.fromConfig(config, parts.logger);
    checkExposure(security.settings, taskManagerListeners(config), parts.logger);
    if (config['metrics.reporter.prom.port'] !== '') warnCleartextMetrics(security.settings, config['taskmanager.bind-host'], 'taskmanager.bind-host', parts.logger);
    const internalTls = security.internalTls;
    const targets = new JobManagerTargets(ha === undefined ? configuredAddress : undefined, heartbeatTimeoutMs, internalTls);
    // Its thread starts while the data server binds, if the process did not start it earlier.
    const livenessStart =
      parts.liveness ?? startLivenessEndpoint(config['taskmanager.bind-host'], config['taskmanager.liveness.port'], parts.logger.child({ scope: 'liveness' }), internalTls);
    // Its failure is awaited below; until then it must not count as an unhandled rejection.
    livenessStart.catch(() => undefined);
    // Set right after the bind (below); until then no consumer can know this TaskManager.
    let peers: PeerReports | undefined;
    let dataServer: DataServer;
    try {
      dataServer = await startDataServer(
        config['taskmanager.bind-host'],
        config['taskmanager.data.port'],
        parts.partitions,
        parts.logger.child({ scope: 'data-exchange' }),
        (consumer, cause) => peers?.unreachable(consumer, cause),
        heartbeatTimeoutMs,
        internalTls,
      );
    } catch (err) {
      targets.close();
      await livenessStart.then((endpoint) => endpoint.close(), () => undefined);
      throw err;
    }
    let liveness: LivenessEndpoint;
    try {
      liveness = await livenessStart;
    } catch (err) {
      dataServer.close();
      targets.close();
      throw err;
    }
    const host = config['taskmanager.host'];
    const dataAddress = `${host}:${dataServer.port}`;
    const livenessAddress = `${host}:${liveness.port}`;
    const taskManagerId = config['taskmanager.resource-id'] || `${host}:${dataServer.port}-${randomBytes(3).toString('hex')}`;
    const logger = parts.logger.child({ taskManagerId });
    // The JobManager probes a peer this TaskManager cannot reach at once, instead of at its next liveness probe.
    peers = new PeerReports(logger, (peer, cause) => connection.sendIfRegistered({ peerUnreachable: { dataAddress: peer, cause } }), () => parts.clock.now());
    const remote = new GrpcRemoteConnector(logger, { peers, ownDataAddress: dataAddress, keepaliveTimeoutMs: heartbeatTimeoutMs, tls: internalTls });
    const localState = await LocalStateDir.claim({ root: config['state.backend.rocksdb.localdir'] || tmpdir(), taskManagerId, logger: logger.child({ scope: 'local-state' }) });
    // In the background: removing a dead TaskManager's DBs can take a while, and this TaskManager's directory is its own.
    void localState.sweep();
    const storages = new StoragePool(s3SettingsFromConfig(config));
    const tracker = new TaskMetricsTracker(() => deployer.tasks(), parts.clock);
    const deployer = new Deployer({
      network: { taskManagerId, partitions: parts.partitions, remote },
      loadJob: parts.createJobLoader(new BundleCache(fetchBundleFrom(() => targets.current()))),
      createTask: parts.createTask,
      storages,
      localStateDir: localState.directory,
      levelTuning: levelTuning(config),
      logger,
      clock: parts.clock,
      onTaskEnded: (task) => tracker.ended(task),
    });
    const connection = new JobManagerConnection({
      targets,
      registration: {
        taskManagerId,
        dataAddress,
        slots: config['taskmanager.numberOfTaskSlots'],
        pid: process.pid,
        leaderEpoch: 0,
        livenessAddress,
      },
      heartbeat: { intervalMs: config['heartbeat.interval'], timeoutMs: config['heartbeat.timeout'] },
      tasks: deployer,
      logger,
      clock: parts.clock,
      onRegistered: parts.prepareForJobs,
    });
    let metrics: TaskManagerMetrics;
    try {
      metrics = await TaskManagerMetrics.start(config, {
        tracker,
        taskManagerId,
        clock: parts.clock,
        logger,
        report: (report) => connection.sendIfRegistered({ metricsReport: encodeMetricsReport(report) }),
        ...(authenticationEnabled(security.settings) && { authenticate: async (authorization: string | undefined) => void (await security.authenticator.authenticate(authorization)) }),
        tls: security.prometheusTls,
      });
    } catch (err) {
      storages.close();
      remote.close();
      dataServer.close();
      await liveness.close();
      targets.close();
      await localState.release();
      throw err;
    }
    logger.info(
      { dataAddress, livenessAddress, jobManager: ha === undefined ? configuredAddress : `the leader of cluster ${ha.clusterId} in etcd at ${ha.endpoints.join(', ')}`, slots: config['taskmanager.numberOfTaskSlots'] },
      'TaskManager started',
    );
    let leader: { close(): Promise<void> } | undefined;
    if (ha !== undefined) {
      try {
        leader = await followLeader(ha, logger, (info) => {
          if (info !== undefined) logger.info({ jobManager: info.address, leaderEpoch: info.epoch }, 'etcd names a JobManager leader');
          if (targets.leaderChanged(info)) connection.leaderChanged();
        });
      } catch (err) {
        await deployer.cancelAll();
        await metrics.close();
        storages.close();
        remote.close();
        dataServer.close();
        await liveness.close();
        targets.close();
        await localState.release();
        throw err;
      }
    }
    connection.start();
    return new TaskManager({
      taskManagerId,
      dataAddress,
      logger,
      dataServer,
      liveness,
      remote,
      connection,
      deployer,
      storages,
      metrics,
      localState,
      closeClient: () => {
        void leader?.close();
        targets.close();
      },
    });
  }

  get connectionState(): ControlStateName {
    return this.#connection.state;
  }

  /** Tasks deployed here that are not terminal yet. */
  get taskCount(): number {
    return this.#deployer.taskCount;
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#connection.close();
    await this.#deployer.cancelAll();
    await this.#localState.release();
    this.#storages.close();
    await this.#metrics.close();
    this.#remote.close();
    this.#dataServer.close();
    await this.#liveness.close();
    this.#closeClient();
    this.#logger.info('TaskManager stopped');
  }
}
