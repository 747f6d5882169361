import type { LivenessProbe } from './registry/liveness-probe.ts';
import type { Clock, Logger, WeirConfig } from '@weir/common';
import { decodeMetricsReport, type JobServiceHandlers, type TaskManagerServiceHandlers } from '@weir/rpc';
import { openStorage, s3SettingsFromConfig } from '@weir/storage';
import type { BlobStore } from './blob/blob-store.ts';
import { Dispatcher } from './dispatcher.ts';
import type { LeaderHa } from './ha/leader-ha.ts';
import type { MetricStore } from './metrics/metric-store.ts';
import { TaskManagerRegistry } from './registry/task-manager-registry.ts';
import { AllowedPaths } from './savepoint/allowed-paths.ts';
import { SavepointService } from './savepoint/savepoint-service.ts';
import { SlotPool } from './scheduler/slot-pool.ts';
import { jobServiceHandlers } from './service/job-service.ts';
import { taskManagerServiceHandlers } from './service/task-manager-service.ts';
import type { ClientRateLimiter } from './service/client-rate-limiter.ts';
import { JobSubmitter } from './submit/job-submitter.ts';
import { workerJobPlanner } from './submit/worker-job-planner.ts';
import { readPathsFromConfig } from './user-code/sandbox.ts';

export interface LeaderSessionParts {
  readonly config: WeirConfig;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly blobStore: BlobStore;
  /** Where TaskManagers' metric reports go (the REST API reads it). */
  readonly metricStore: MetricStore;
  /** Limits submissions and savepoint triggers per client; one for the process, shared with REST. */
  readonly rateLimiter: ClientRateLimiter;
  /** With HA: this term's epoch and stores; without, the JobManager leads alone, epoch 0. */
  readonly ha?: LeaderHa;
  /** How TaskManagers' liveness endpoints are asked: plain HTTP unless internal TLS is on (tls-liveness-probe.ts). */
  readonly livenessProbe?: LivenessProbe;
}

/**
 * What a JobManager runs while it leads, as Flink's per-leadership Dispatcher: TaskManager
 * registry and slots, the jobs, submission and savepoints, and the gRPC handlers over them.
 * A new term starts with none of the last one's: TaskManagers register again and jobs are
 * recovered from etcd.
 */
export class LeaderSession {
  readonly dispatcher: Dispatcher;
  readonly submitter: JobSubmitter;
  readonly jobHandlers: JobServiceHandlers;
  readonly taskManagerHandlers: TaskManagerServiceHandlers;
  readonly registry: TaskManagerRegistry;
  readonly slotPool: SlotPool;
  readonly savepoints: SavepointService;
  readonly #planner: ReturnType<typeof workerJobPlanner>;

  constructor(parts: LeaderSessionParts) {
    const { config, logger, clock, blobStore, metricStore, ha, livenessProbe } = parts;
    const slotPool = new SlotPool();
    const registry = new TaskManagerRegistry({ clock, intervalMs: config['heartbeat.interval'], timeoutMs: config['heartbeat.timeout'], probeIntervalMs: config['heartbeat.probe-interval'], probeTimeoutMs: config['heartbeat.probe-timeout'] }, logger, {
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
      awaitingFinalCheckpoint: (taskManagerId, message) => dispatcher.awaitingFinalCheckpoint(taskManagerId, message),
      operatorEvent: (taskManagerId, message) => dispatcher.operatorEvent(taskManagerId, message),
      metricsReport(taskManagerId, message) {
        const report = decodeMetricsReport(message);
        if (typeof report === 'string') logger.warn({ taskManagerId }, `ignoring a metrics report: ${report}`);
        else metricStore.ingest(taskManagerId, report, clock.now());
      },
    }, livenessProbe);
    this.registry = registry;
    this.slotPool = slotPool;
    const dispatcher = new Dispatcher(
      { clock, logger, slotPool, gateway: registry, slotRequestTimeoutMs: config['slot.request.timeout'] },
      ha === undefined ? undefined : (master, submittedAtMs) => void ha.cancelRequested(master.jobId, master.spec.jobGraph.jobName, submittedAtMs).catch(() => undefined),
    );
    this.dispatcher = dispatcher;
    const s3 = s3SettingsFromConfig(config);
    const open = (url: string) => openStorage(url, s3);
    const planner = workerJobPlanner({
      mainTimeoutMs: config['jobmanager.job-main.timeout'],
      heapSizeBytes: config['jobmanager.user-code.heap-size'],
      readPaths: readPathsFromConfig(config['jobmanager.user-code.read-paths']),
      systemExit: config['cluster.intercept-user-system-exit'],
      logger,
    });
    this.#planner = planner;
    this.submitter = new JobSubmitter(planner, blobStore, dispatcher, config, logger, open, ha);
    const savepoints = new SavepointService({
      dispatcher,
      defaultDirectory: config['state.savepoints.dir'],
      openStorage: open,
      allowedPaths: AllowedPaths.fromConfig(config),
      metadataMaxBytes: config['state.metadata.max-size'],
      logger,
    });
    this.savepoints = savepoints;
    this.jobHandlers = jobServiceHandlers(dispatcher, this.submitter, savepoints, slotPool, logger, parts.rateLimiter);
    this.taskManagerHandlers = taskManagerServiceHandlers(registry, blobStore, logger, ha?.epoch ?? 0);
  }

  /** The term ended: TaskManager streams end (they find the next leader), job timers and checkpoints stop, nothing is deleted. */
  close(): void {
    this.registry.close();
    this.dispatcher.shutDown();
    this.#planner.close();
  }

  /** Starts a job worker process ahead of the first submission (a term that leads; not the idle one of a standby). */
  warmUserCode(): void {
    this.#planner.warm();
  }
}
