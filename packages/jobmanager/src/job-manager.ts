import { createLogger, systemClock, type Clock, type Logger, type WeirConfig } from '@weir/common';
import type { PrometheusEndpoint } from '@weir/metrics';
import { bindServer, createServer, decodeMetricsReport, services } from '@weir/rpc';
import { openStorage, s3SettingsFromConfig } from '@weir/storage';
import { readFileSync } from 'node:fs';
import { dashboardBuilt, dashboardDir } from '@weir/dashboard';
import { BlobStore } from './blob/blob-store.ts';
import { Dispatcher } from './dispatcher.ts';
import { startJobManagerMetrics } from './metrics/jobmanager-metrics.ts';
import { MetricStore } from './metrics/metric-store.ts';
import { TaskManagerRegistry } from './registry/task-manager-registry.ts';
import { startRestServer, type RestServer } from './rest/rest-server.ts';
import { SavepointOperations } from './rest/savepoint-operations.ts';
import { SlotPool } from './scheduler/slot-pool.ts';
import { SavepointService } from './savepoint/savepoint-service.ts';
import { jobServiceHandlers } from './service/job-service.ts';
import { taskManagerServiceHandlers } from './service/task-manager-service.ts';
import { JobSubmitter } from './submit/job-submitter.ts';
import { workerJobPlanner } from './submit/worker-job-planner.ts';

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

/** The version the REST API reports, the JobManager package's. */
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * Starts a JobManager: the JobService and TaskManagerService on
 * `jobmanager.bind-host`:`jobmanager.rpc.port`, the REST API and dashboard on
 * `rest.bind-address`:`rest.port`. Rejects with BIND_FAILED when a port is taken and
 * BLOB_STORE_FAILED when the blob directory cannot be created.
 */
export async function startJobManager(config: WeirConfig, options: JobManagerOptions = {}): Promise<JobManagerHandle> {
  const logger = options.logger ?? createLogger('jobmanager');
  const clock = options.clock ?? systemClock;
  const blobStore = await BlobStore.open(config['blob.storage.directory']);
  const slotPool = new SlotPool();
  const metricStore = new MetricStore();
  const registry = new TaskManagerRegistry(
    { clock, intervalMs: config['heartbeat.interval'], timeoutMs: config['heartbeat.timeout'] },
    logger,
    {
      registered(tm) {
        slotPool.addTaskManager(tm.id, tm.dataAddress, tm.slots);
        dispatcher.slotsMayBeAvailable();
      },
      lost(tm, cause) {
        slotPool.removeTaskManager(tm.id);
        metricStore.taskManagerLost(tm.id);
        dispatcher.taskManagerLost(tm.id, cause);
      },
      taskStatus: (taskManagerId, update) => dispatcher.taskStatus(taskManagerId, update),
      acknowledgeCheckpoint: (taskManagerId, message) => dispatcher.acknowledgeCheckpoint(taskManagerId, message),
      declineCheckpoint: (taskManagerId, message) => dispatcher.declineCheckpoint(taskManagerId, message),
      operatorEvent: (taskManagerId, message) => dispatcher.operatorEvent(taskManagerId, message),
      metricsReport(taskManagerId, message) {
        const report = decodeMetricsReport(message);
        if (typeof report === 'string') logger.warn({ taskManagerId }, `ignoring a metrics report: ${report}`);
        else metricStore.ingest(taskManagerId, report, clock.now());
      },
    },
  );
  const dispatcher = new Dispatcher({
    clock,
    logger,
    slotPool,
    gateway: registry,
    slotRequestTimeoutMs: config['slot.request.timeout'],
  });
  const s3 = s3SettingsFromConfig(config);
  const planner = workerJobPlanner({
    mainTimeoutMs: config['jobmanager.job-main.timeout'],
    heapSizeBytes: config['jobmanager.user-code.heap-size'],
    systemExit: config['cluster.intercept-user-system-exit'],
    logger,
  });
  const submitter = new JobSubmitter(planner, blobStore, dispatcher, config, logger, (url) => openStorage(url, s3));
  const savepoints = new SavepointService({ dispatcher, defaultDirectory: config['state.savepoints.dir'], openStorage: (url) => openStorage(url, s3), logger });

  const server = createServer(config['jobmanager.rpc.max-message-size']);
  server.addService(services.JobService, jobServiceHandlers(dispatcher, submitter, savepoints, slotPool, logger));
  server.addService(services.TaskManagerService, taskManagerServiceHandlers(registry, blobStore, logger));
  const host = config['jobmanager.bind-host'];
  let port: number;
  try {
    port = await bindServer(server, host, config['jobmanager.rpc.port']);
  } catch (err) {
    server.forceShutdown();
    throw err;
  }
  let rest: RestServer;
  let prometheus: PrometheusEndpoint | undefined;
  try {
    prometheus = await startJobManagerMetrics(config, { dispatcher, registry, slotPool, clock, logger });
    rest = await startRestServer({
      host: config['rest.bind-address'],
      port: config['rest.port'],
      dashboardDir: dashboardBuilt() ? dashboardDir : undefined,
      logger,
      context: {
        dispatcher,
        taskManagers: registry,
        slotPool,
        savepoints,
        operations: new SavepointOperations(),
        metrics: metricStore,
        clock,
        refreshIntervalMs: config['web.refresh-interval'],
        version: VERSION,
      },
    });
  } catch (err) {
    await prometheus?.close();
    registry.close();
    server.forceShutdown();
    throw err;
  }
  if (!dashboardBuilt()) logger.warn({ dashboardDir }, 'the dashboard is not built (pnpm install builds it); the REST API is served without it');
  logger.info({ host, port, restPort: rest.port, blobDirectory: blobStore.directory }, 'JobManager listening');
  logger.info(`Web dashboard and REST API at http://${config['rest.bind-address']}:${rest.port}`);

  let closing: Promise<void> | undefined;
  return {
    port,
    restPort: rest.port,
    close() {
      closing ??= (async () => {
        registry.close();
        dispatcher.shutDown();
        // Control and watch streams never end by themselves, so a graceful shutdown would wait forever.
        server.forceShutdown();
        await rest.close();
        await prometheus?.close();
        logger.info({ port }, 'JobManager stopped');
      })();
      return closing;
    },
  };
}
