import { isGloballyTerminal, type Clock, type Logger, type WeirConfig } from '@weir/common';
import { processRegistry, scrapedGauges, startPrometheusEndpoint, type PrometheusEndpoint, type PrometheusTls } from '@weir/metrics';
import type { Dispatcher } from '../dispatcher.ts';
import type { TaskManagerRegistry } from '../registry/task-manager-registry.ts';
import type { SlotPool } from '../scheduler/slot-pool.ts';
import { JOB_METRIC_HELP, jobMetrics } from './job-metrics.ts';

const CLUSTER_METRIC_HELP = {
  numRegisteredTaskManagers: 'TaskManagers registered.',
  numRunningJobs: 'Jobs that have not ended.',
  taskSlotsAvailable: 'Free task slots.',
  taskSlotsTotal: 'Task slots of all TaskManagers.',
} as const;

/**
 * The JobManager's Prometheus endpoint (metrics.reporter.prom.port): the process's metrics,
 * the cluster's (TaskManagers, slots, jobs) and each live job's (uptime, restarts,
 * checkpoints), all read when Prometheus scrapes. Undefined when no port is configured.
 */
export async function startJobManagerMetrics(
  config: WeirConfig,
  deps: {
    dispatcher: Dispatcher;
    registry: TaskManagerRegistry;
    slotPool: SlotPool;
    clock: Clock;
    logger: Logger;
    /** With authentication on: a scrape needs a token (any role reads). */
    authenticate?: (authorization: string | undefined) => Promise<void>;
    /** With metrics.reporter.prom.ssl.enabled: HTTPS with the REST certificate. */
    tls?: PrometheusTls;
  },
): Promise<PrometheusEndpoint | undefined> {
  const range = config['metrics.reporter.prom.port'];
  if (range === '') return undefined;
  const registry = processRegistry();
  scrapedGauges(registry, 'weir_jobmanager', CLUSTER_METRIC_HELP, [], () => {
    const slots = deps.slotPool.stats();
    const jobs = deps.dispatcher.list();
    return [
      {
        labels: {},
        values: {
          numRegisteredTaskManagers: deps.registry.connected().length,
          numRunningJobs: jobs.filter((job) => !isGloballyTerminal(job.status)).length,
          taskSlotsAvailable: slots.free,
          taskSlotsTotal: slots.total,
        },
      },
    ];
  });
  scrapedGauges(registry, 'weir_jobmanager_job', JOB_METRIC_HELP, ['job_id', 'job_name'], () =>
    deps.dispatcher
      .list()
      .filter((job) => !isGloballyTerminal(job.status))
      .map((job) => ({ labels: { job_id: job.jobId, job_name: job.spec.jobGraph.jobName }, values: jobMetrics(job, deps.clock.now()) })),
  );
  const endpoint = await startPrometheusEndpoint(range, config['jobmanager.bind-host'], registry, { authenticate: deps.authenticate, tls: deps.tls });
  deps.logger.info({ port: endpoint.port }, `Prometheus metrics at ${deps.tls === undefined ? 'http' : 'https'}://${config['jobmanager.rpc.address']}:${endpoint.port}/metrics`);
  return endpoint;
}
