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
  /** The ID of the running job. */
  getJobId(): string;
  /** The name of the task (its chain of operators). */
  getTaskName(): string;
  /** This subtask's index, 0 .. parallelism - 1. */
  getIndexOfThisSubtask(): number;
  /** The operator's parallelism. */
  getNumberOfParallelSubtasks(): number;
  /** The operator's max parallelism: its number of key groups. */
  getMaxNumberOfParallelSubtasks(): number;
  /** 0 for the first run, +1 for every restart of the job. */
  getAttemptNumber(): number;
  /** The operator's metric group (Flink's OperatorMetricGroup): user counters, gauges, meters and histograms. */
  getMetricGroup(): MetricGroup;
  /** The current key's value state (keyed functions only). */
  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  /** The current key's list state (keyed functions only). */
  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  /** The current key's map state (keyed functions only). */
  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V>;
  /** The current key's reducing state (keyed functions only). */
  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
}
