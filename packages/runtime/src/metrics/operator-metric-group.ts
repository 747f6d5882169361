import { MeterView, SimpleCounter, type Counter, type Gauge, type Histogram, type Meter, type MetricGroup } from '@weir/api';
import { flatten, type OperatorMetricValue } from './operator-metric-values.ts';

/** Who an operator's metrics belong to: Flink's operator scope variables. */
export interface OperatorScope {
  readonly jobId: string;
  readonly jobName: string;
  readonly taskName: string;
  readonly subtaskIndex: number;
  readonly attempt: number;
  readonly operatorId: string;
  readonly operatorName: string;
}

/** A registered metric: where it sits below the operator scope, and the metric. */
export interface RegisteredMetric {
  /** Scope components below the operator, with a key-value group as its key and its value. */
  readonly path: readonly string[];
  /** The same with a key-value group as its key only: the Prometheus name's parts. */
  readonly logical: readonly string[];
  /** The key-value groups on the way: Prometheus labels. */
  readonly variables: Readonly<Record<string, string>>;
  readonly name: string;
  readonly metric: Counter | Gauge<unknown> | Meter | Histogram;
}

/** The metrics of one operator and its groups; the runtime samples them, user code registers them. */
export class OperatorMetrics {
  readonly #metrics = new Map<string, RegisteredMetric>();
  readonly #views: MeterView[] = [];
  readonly group: MetricGroup;

  constructor(readonly scope: OperatorScope) {
    this.group = new Group(this, [], [], {});
  }

  register<M extends RegisteredMetric['metric']>(entry: Omit<RegisteredMetric, 'metric'>, metric: M): M {
    const id = [...entry.path, entry.name].join('.');
    const existing = this.#metrics.get(id);
    // Flink keeps the first of two metrics of one name and ignores the second.
    if (existing !== undefined) return existing.metric as M;
    this.#metrics.set(id, { ...entry, metric });
    if (metric instanceof MeterView) this.#views.push(metric);
    return metric;
  }

  /**
   * Every metric's value now. Meters take a sample first (Flink's view update), so their rates
   * cover their time span up to now; `ended`: the operator no longer runs, its rates are 0.
   */
  sample(nowMs: number, ended = false): OperatorMetricValue[] {
    for (const view of this.#views) view.update(nowMs);
    const values: OperatorMetricValue[] = [];
    for (const entry of this.#metrics.values()) flatten(entry, ended, values);
    return values;
  }
}

class Group implements MetricGroup {
  constructor(
    private readonly owner: OperatorMetrics,
    private readonly path: readonly string[],
    private readonly logical: readonly string[],
    private readonly variables: Readonly<Record<string, string>>,
  ) {}

  counter<C extends Counter>(name: string, counter?: C): C {
    return this.#register(name, counter ?? (new SimpleCounter() as Counter as C));
  }

  gauge<T>(name: string, gauge: Gauge<T> | (() => T)): Gauge<T> {
    return this.#register(name, typeof gauge === 'function' ? { getValue: gauge } : gauge);
  }

  meter<M extends Meter>(name: string, meter: M): M {
    return this.#register(name, meter);
  }

  histogram<H extends Histogram>(name: string, histogram: H): H {
    return this.#register(name, histogram);
  }

  addGroup(name: string, value?: string): MetricGroup {
    if (value === undefined) return new Group(this.owner, [...this.path, name], [...this.logical, name], this.variables);
    return new Group(this.owner, [...this.path, name, value], [...this.logical, name], { ...this.variables, [name]: value });
  }

  getScopeComponents(): readonly string[] {
    const { jobName, taskName, subtaskIndex, operatorName } = this.owner.scope;
    return ['taskmanager', jobName, taskName, String(subtaskIndex), operatorName, ...this.path];
  }

  getAllVariables(): Readonly<Record<string, string>> {
    const s = this.owner.scope;
    const own = Object.fromEntries(Object.entries(this.variables).map(([key, value]) => [`<${key}>`, value]));
    return {
      '<job_id>': s.jobId,
      '<job_name>': s.jobName,
      '<task_name>': s.taskName,
      '<subtask_index>': String(s.subtaskIndex),
      '<task_attempt_num>': String(s.attempt),
      '<operator_id>': s.operatorId,
      '<operator_name>': s.operatorName,
      ...own,
    };
  }

  getMetricIdentifier(name: string): string {
    return [...this.getScopeComponents(), name].join('.');
  }

  #register<M extends RegisteredMetric['metric']>(name: string, metric: M): M {
    if (name === '') throw new RangeError('a metric needs a name');
    return this.owner.register({ path: this.path, logical: this.logical, variables: this.variables, name }, metric);
  }
}
