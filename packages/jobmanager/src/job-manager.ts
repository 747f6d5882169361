import { readFileSync } from 'node:fs';
import { createLogger, systemClock, WeirError, type Clock, type Logger, type WeirConfig } from '@weir/common';
import { dashboardBuilt, dashboardDir } from '@weir/dashboard';
import { EtcdHaServices, HaErrorCode, haSettingsFromConfig, type LeaderElection, type LeaderRetrieval } from '@weir/ha';
import type { PrometheusEndpoint } from '@weir/metrics';
import { bindServer, createServer, services, type JobServiceHandlers, type TaskManagerServiceHandlers } from '@weir/rpc';
import { ClusterSecurity, authenticationEnabled, checkExposure, warnCleartextMetrics } from '@weir/security';
import { openStorage, s3SettingsFromConfig } from '@weir/storage';
import { BlobStore } from './blob/blob-store.ts';
import { EtcdLeaderHa } from './ha/etcd-leader-ha.ts';
import { gatedHandlers } from './ha/leader-gate.ts';
import { recoverJobs } from './ha/recover-jobs.ts';
import { standbyRestTarget } from './ha/rest-target.ts';
import { ClientRateLimiter } from './service/client-rate-limiter.ts';
import { LeaderSession } from './leader-session.ts';
import { startJobManagerMetrics } from './metrics/jobmanager-metrics.ts';
import { MetricStore } from './metrics/metric-store.ts';
import type { RestTarget } from './rest/leader-forwarding.ts';
import { startRestServer, type RestServer } from './rest/rest-server.ts';
import { advertisedRestUrl } from './rest/rest-url.ts';
import { SavepointOperations } from './rest/savepoint-operations.ts';
import { guardJobService, guardTaskManagerService } from './security/grpc-guard.ts';
import type { JobOwners } from './security/job-owners.ts';
import { jobManagerListeners } from './security/listeners.ts';
import { tlsLivenessProbe } from './registry/tls-liveness-probe.ts';

export interface JobManagerHandle {
  /** The port the gRPC server listens on (the configured one, or the one picked for port 0). */
  readonly port: number;
  /** The port of the REST API and dashboard (rest.port, or the one picked for 0). */
  readonly restPort: number;
  close(): Promise<void>;
}

export interface JobManagerOptions {
  readonly logger?: Logger;
  readonly clock?: Clock;
}

/** How long a standby waits for the leader's REST API to answer a forwarded request; its handlers never block. */
const FORWARD_TIMEOUT_MS = 5_000;

/** The version the REST API reports, the JobManager package's. */
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * Starts a JobManager: the JobService and TaskManagerService on
 * `jobmanager.bind-host`:`jobmanager.rpc.port`, the REST API and dashboard on
 * `rest.bind-address`:`rest.port`. Rejects with BIND_FAILED when a port is taken and
 * BLOB_STORE_FAILED when the blob directory cannot be created. With
 * high-availability.type: etcd it first checks etcd, storageDir and the cluster-id (see
 * @weir/ha), then serves as a standby (NOT_LEADER to every gRPC call, REST requests forwarded
 * to the leader's REST API) until it wins the election, takes over the cluster's jobs and
 * leads until its lease is lost.
 */
export async function startJobManager(config: WeirConfig, options: JobManagerOptions = {}): Promise<JobManagerHandle> {
  const logger = options.logger ?? createLogger('jobmanager');
  const clock = options.clock ?? systemClock;
  // Before anything binds or opens: a listener exposed without TLS and authentication does not start.
  const security = ClusterSecurity.fromConfig(config, logger);
  checkExposure(security.settings, jobManagerListeners(config), logger);
  if (config['metrics.reporter.prom.port'] !== '') warnCleartextMetrics(security.settings, config['jobmanager.bind-host'], 'jobmanager.bind-host', logger);
  const livenessProbe = security.internalTls === undefined ? undefined : tlsLivenessProbe(security.internalTls);
  const haSettings = haSettingsFromConfig(config, 'jobmanager');
  const blobStore = await BlobStore.open(config['blob.storage.directory']);
  const s3 = s3SettingsFromConfig(config);
  const open = (url: string) => openStorage(url, s3);
  const ha = haSettings === undefined ? undefined : await EtcdHaServices.open(haSettings, { logger, clock, openStorage: open });

  // TaskManagers' metric reports, shown over REST; kept across terms (a TaskManager's entry goes when it is lost).
  const metricStore = new MetricStore();
  // Per client address across terms and APIs: a new term or the REST API is no fresh budget.
  const rateLimiter = new ClientRateLimiter(config['jobmanager.client.max-requests-per-minute'], clock);
  // Without HA this JobManager leads alone; with HA only while it holds the etcd lease.
  let session: LeaderSession | undefined = ha === undefined ? new LeaderSession({ config, logger, clock, blobStore, metricStore, rateLimiter, livenessProbe }) : undefined;
  // What metrics show while no term runs: an empty cluster (REST asks the leader).
  const idle = session ?? new LeaderSession({ config, logger, clock, blobStore, metricStore, rateLimiter, livenessProbe });
  const current = (): LeaderSession => session ?? idle;
  // A job's owner is kept with the job (and under HA with its submission), so the leader of any term knows it.
  const owners: JobOwners = { ownerOf: (jobId) => current().dispatcher.ownerOf(jobId), knowsOwners: () => ha === undefined || (session !== undefined && session === recovered) };
  let election: LeaderElection | undefined;
  // The leader etcd names, followed while this JobManager runs, for REST; the epoch of this one's term while it leads.
  let leaderRecord: LeaderRetrieval | undefined;
  let epoch: number | undefined;
  let recovered: LeaderSession | undefined;
  const notLeader = () =>
    new WeirError(
      HaErrorCode.NOT_LEADER,
      `this JobManager is a standby and does not serve jobs; the leader is at ${election?.leaderAddress ?? 'an address not known yet'}: pass -m <leader host:port>, or give the client the high-availability.* config to find the leader in etcd`,
    );
  const server = createServer(config['jobmanager.rpc.max-message-size']);
  server.addService(services.JobService, guardJobService(gatedHandlers<JobServiceHandlers>(services.JobService, () => session?.jobHandlers, notLeader), security, owners));
  server.addService(services.TaskManagerService, guardTaskManagerService(gatedHandlers<TaskManagerServiceHandlers>(services.TaskManagerService, () => session?.taskManagerHandlers, notLeader), security, logger));
  // TaskManagers show a node certificate (checked per call by guardTaskManagerService); CLI clients may come with only a token.
  const internalTls = security.internalTls;
  const host = config['jobmanager.bind-host'];
  let port: number;
  try {
    port = await bindServer(server, host, config['jobmanager.rpc.port'], internalTls === undefined ? undefined : { source: internalTls, clientCertificates: 'verified-if-shown' });
  } catch (err) {
    server.forceShutdown();
    ha?.close();
    security.close();
    throw err;
  }
  // REST and metrics outlive terms: they read the current term's parts at every request.
  const dispatcher = () => current().dispatcher;
  const slotPool = () => current().slotPool;
  const address = `${config['jobmanager.rpc.address']}:${port}`;
  // REST answers here only once the term's jobs are recovered, as Flink's REST waits for the confirmed leader:
  // until then the cluster would look empty. Before that the leader record names this JobManager, so it is a 503.
  const restTarget = (): RestTarget => (session !== undefined && session === recovered ? { kind: 'local' } : standbyRestTarget(leaderRecord?.current, address));
  let restUrl = '';
  let rest: RestServer;
  let prometheus: PrometheusEndpoint | undefined;
  try {
    leaderRecord = await ha?.followLeader((leader) => {
      if (session === undefined && leader?.restUrl !== undefined && leader.address !== address) logger.info({ leader: leader.address, restUrl: leader.restUrl }, `standing by: REST requests go to the leader's REST API at ${leader.restUrl}`);
    });
    prometheus = await startJobManagerMetrics(config, {
      get dispatcher() {
        return dispatcher();
      },
      get registry() {
        return current().registry;
      },
      get slotPool() {
        return slotPool();
      },
      clock,
      logger,
      ...(authenticationEnabled(security.settings) && { authenticate: async (authorization: string | undefined) => void (await security.authenticator.authenticate(authorization)) }),
      tls: security.prometheusTls,
    });
    rest = await startRestServer({
      host: config['rest.bind-address'],
      port: config['rest.port'],
      limits: {
        maxContentLength: config['rest.server.max-content-length'],
        requestTimeoutMs: config['rest.server.request-timeout'],
        maxConnections: config['rest.server.max-connections'],
      },
      dashboardDir: dashboardBuilt() ? dashboardDir : undefined,
      logger,
      forwarding: ha === undefined ? undefined : { target: restTarget, self: address, timeoutMs: FORWARD_TIMEOUT_MS, ...(internalTls !== undefined && { tls: () => internalTls.current }) },
      guard: { security, owners },
      tls: security.restTls,
      context: {
        get dispatcher() {
          return dispatcher();
        },
        get slotPool() {
          return slotPool();
        },
        taskManagers: { connected: () => current().registry.connected() },
        get savepoints() {
          return current().savepoints;
        },
        operations: new SavepointOperations(),
        rateLimiter,
        metrics: metricStore,
        clock,
        configuration: config,
        refreshIntervalMs: config['web.refresh-interval'],
        version: VERSION,
        leader: () => ({ address, restUrl, epoch: epoch ?? null }),
      },
    });
    restUrl = advertisedRestUrl(config, rest.port);
  } catch (err) {
    await leaderRecord?.close();
    await prometheus?.close();
    session?.close();
    server.forceShutdown();
    ha?.close();
    security.close();
    throw err;
  }
  if (!dashboardBuilt()) logger.warn({ dashboardDir }, 'the dashboard is not built (pnpm install builds it); the REST API is served without it');
  logger.info({ host, port, restPort: rest.port, restUrl, blobDirectory: blobStore.directory, highAvailability: ha === undefined ? 'none' : ha.storageUrl }, 'JobManager listening');
  logger.info(`Web dashboard and REST API at ${security.restTls === undefined ? 'http' : 'https'}://${config['rest.bind-address']}:${rest.port}`);

  session?.warmUserCode();
  if (ha !== undefined) {
    election = ha.election({ address, restUrl });
    election.start({
      async grantLeadership(term) {
        const termLogger = logger.child({ epoch: term.epoch });
        const next = new LeaderSession({ config, logger: termLogger, clock, blobStore, metricStore, rateLimiter, livenessProbe, ha: new EtcdLeaderHa(ha, term, termLogger) });
        // TaskManagers may register while the jobs are recovered: the jobs wait for their slots.
        session = next;
        epoch = term.epoch;
        next.warmUserCode();
        try {
          await recoverJobs({ services: ha, term, session: next, openStorage: open, logger: termLogger });
          recovered = next;
        } catch (err) {
          if (session === next) {
            session = undefined;
            epoch = undefined;
          }
          next.close();
          throw err;
        }
      },
      revokeLeadership(term, reason) {
        logger.warn({ epoch: term.epoch, reason }, 'no longer the leader: suspending every job and dropping the TaskManagers');
        session?.close();
        session = undefined;
        epoch = undefined;
      },
    });
  }

  let closing: Promise<void> | undefined;
  return {
    port,
    restPort: rest.port,
    close() {
      closing ??= (async () => {
        // Resigning first lets a standby take over at once.
        await election?.close();
        session?.close();
        session = undefined;
        // Control and watch streams never end by themselves, so a graceful shutdown would wait forever.
        server.forceShutdown();
        await rest.close();
        await prometheus?.close();
        await leaderRecord?.close();
        ha?.close();
        security.close();
        logger.info({ port }, 'JobManager stopped');
      })();
      return closing;
    },
  };
}
