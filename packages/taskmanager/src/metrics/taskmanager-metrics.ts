import type { Clock, Logger, TaskManagerMetricsReport, TimerHandle, WeirConfig } from '@weir/common';
import { DynamicGauges, operatorMetricHelp, ProcessMetrics, processRegistry, scrapedGauges, startPrometheusEndpoint, TASK_METRIC_HELP, type NamedValue, type PrometheusEndpoint, type PrometheusTls } from '@weir/metrics';
import type { TaskMetricsTracker } from './task-metrics-tracker.ts';

/** How often task rates are computed when only Prometheus wants them (metrics.fetcher.update-interval is 0). */
const PROMETHEUS_ONLY_TICK_MS = 1_000;

/** Flink's Prometheus labels of a task's series. */
const TASK_LABELS = ['job_id', 'job_name', 'task_id', 'task_name', 'subtask_index', 'task_attempt_num', 'tm_id'] as const;

/**
 * A TaskManager's metrics: the Prometheus endpoint (metrics.reporter.prom.port) with the
 * process's and every running task's metrics, and a tick every
 * metrics.fetcher.update-interval that computes the tasks' rates and hands them, with the
 * process's metrics, to `report` (for the JobManager). With no endpoint and an interval of 0,
 * nothing runs at all.
 */
export class TaskManagerMetrics {
  #timer: TimerHandle | undefined;
  #closed = false;
  readonly #process: ProcessMetrics | undefined;

  private constructor(
    private readonly tracker: TaskMetricsTracker,
    private readonly clock: Clock,
    private readonly tickMs: number,
    private readonly report: ((report: TaskManagerMetricsReport) => void) | undefined,
    readonly endpoint: PrometheusEndpoint | undefined,
  ) {
    this.#process = report === undefined ? undefined : new ProcessMetrics();
  }

  static async start(
    config: WeirConfig,
    deps: {
      tracker: TaskMetricsTracker;
      taskManagerId: string;
      clock: Clock;
      logger: Logger;
      report?: (report: TaskManagerMetricsReport) => void;
      /** With authentication on: a scrape needs a token (any role reads). */
      authenticate?: (authorization: string | undefined) => Promise<void>;
      /** With metrics.reporter.prom.ssl.enabled: HTTPS with the REST certificate. */
      tls?: PrometheusTls;
    },
  ): Promise<TaskManagerMetrics> {
    const range = config['metrics.reporter.prom.port'];
    let endpoint: PrometheusEndpoint | undefined;
    if (range !== '') {
      const registry = processRegistry();
      scrapedGauges(registry, 'weir_taskmanager_job_task', TASK_METRIC_HELP, TASK_LABELS, () => deps.tracker.series(deps.taskManagerId));
      const operators = new DynamicGauges(registry, 'weir_taskmanager_job_task_operator', operatorMetricHelp);
      endpoint = await startPrometheusEndpoint(range, config['taskmanager.bind-host'], registry, {
        beforeScrape: () => operators.sync(operatorValues(deps.tracker, deps.taskManagerId)),
        authenticate: deps.authenticate,
        tls: deps.tls,
      });
      deps.logger.info({ port: endpoint.port }, `Prometheus metrics at ${deps.tls === undefined ? 'http' : 'https'}://${config['taskmanager.host']}:${endpoint.port}/metrics`);
    }
    const interval = config['metrics.fetcher.update-interval'];
    const tickMs = interval > 0 ? interval : endpoint === undefined ? 0 : PROMETHEUS_ONLY_TICK_MS;
    const metrics = new TaskManagerMetrics(deps.tracker, deps.clock, tickMs, interval > 0 ? deps.report : undefined, endpoint);
    metrics.#schedule();
    return metrics;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    this.#process?.close();
    await this.endpoint?.close();
  }

  #schedule(): void {
    if (this.tickMs === 0 || this.#closed) return;
    this.#timer = this.clock.setTimeout(() => {
      const tasks = this.tracker.tick();
      if (this.#process !== undefined) this.report?.({ process: this.#process.sample(), tasks });
      this.#schedule();
    }, this.tickMs);
  }
}

/**
 * The running operators' values as Flink's PrometheusReporter names them: the operator's labels
 * (the task's, operator_id, operator_name) and those of its key-value groups; figures that
 * Prometheus does not get (a histogram's min, max, mean) are left out.
 */
function* operatorValues(tracker: TaskMetricsTracker, taskManagerId: string): Iterable<NamedValue> {
  for (const { labels, values } of tracker.operatorSeries(taskManagerId)) {
    for (const { prometheus, value } of values) {
      if (prometheus !== undefined) yield { name: prometheus.name, labels: { ...prometheus.labels, ...labels }, value };
    }
  }
}
