import type {
  ListState,
  ListStateDescriptor,
  MapState,
  MapStateDescriptor,
  ReducingState,
  ReducingStateDescriptor,
  ValueState,
  ValueStateDescriptor,
} from '../state/types.ts';
import type { MetricGroup } from '../metrics/types.ts';

/**
 * What a running function knows about its task, and the door to keyed state. The state
 * getters only work in operators that run on a KeyedStream; elsewhere they throw a
 * WeirError with code STATE_NOT_KEYED.
 */
export interface RuntimeContext {
  getJobId(): string;
  getTaskName(): string;
  getIndexOfThisSubtask(): number;
  getNumberOfParallelSubtasks(): number;
  getMaxNumberOfParallelSubtasks(): number;
  /** 0 for the first run, +1 for every restart of the job. */
  getAttemptNumber(): number;
  /** The operator's metric group (Flink's OperatorMetricGroup): user counters, gauges, meters and histograms. */
  getMetricGroup(): MetricGroup;
  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V>;
  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
}
