import type {
  ListState,
  ListStateDescriptor,
  MapState,
  MapStateDescriptor,
  MetricGroup,
  ReducingState,
  ReducingStateDescriptor,
  RuntimeContext,
  ValueState,
  ValueStateDescriptor,
} from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';

export interface SubtaskInfo {
  readonly jobId: string;
  readonly taskName: string;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  readonly maxParallelism: number;
  readonly attempt: number;
}

/** What one operator's function sees of its task; the state getters work only when the operator is keyed. */
export class OperatorRuntimeContext implements RuntimeContext {
  /** The names of the operator's broadcast states: keyed state of these names is refused, it would be another state of the same name. */
  #broadcastStateNames: ReadonlySet<string> = new Set();

  constructor(
    private readonly subtask: SubtaskInfo,
    private readonly operatorName: string,
    private readonly keyed: KeyedStateBackend | undefined,
    private readonly metricGroup: MetricGroup,
  ) {}

  getMetricGroup(): MetricGroup {
    return this.metricGroup;
  }

  getJobId(): string {
    return this.subtask.jobId;
  }

  getTaskName(): string {
    return this.subtask.taskName;
  }

  getIndexOfThisSubtask(): number {
    return this.subtask.subtaskIndex;
  }

  getNumberOfParallelSubtasks(): number {
    return this.subtask.parallelism;
  }

  getMaxNumberOfParallelSubtasks(): number {
    return this.subtask.maxParallelism;
  }

  getAttemptNumber(): number {
    return this.subtask.attempt;
  }

  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T> {
    return this.#backend('getState', descriptor.name).getState(descriptor);
  }

  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T> {
    return this.#backend('getListState', descriptor.name).getListState(descriptor);
  }

  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V> {
    return this.#backend('getMapState', descriptor.name).getMapState(descriptor);
  }

  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.#backend('getReducingState', descriptor.name).getReducingState(descriptor);
  }

  /** A broadcast operator's states: its function gets them from ctx.getBroadcastState, never as keyed state. */
  reserveBroadcastStateNames(names: ReadonlySet<string>): void {
    this.#broadcastStateNames = names;
  }

  #backend(method: string, stateName: string): KeyedStateBackend {
    if (this.#broadcastStateNames.has(stateName)) {
      throw new WeirError(
        RuntimeErrorCode.BROADCAST_STATE_MISUSED,
        `${method}('${stateName}') of operator '${this.operatorName}' names its broadcast state '${stateName}', which is not keyed state: ` +
          `read it with ctx.getBroadcastState(descriptor) (written only in processBroadcastElement), or give the keyed state another name`,
      );
    }
    if (this.keyed !== undefined) return this.keyed;
    throw new WeirError(
      RuntimeErrorCode.STATE_NOT_KEYED,
      `${method}('${stateName}') needs keyed state, but operator '${this.operatorName}' does not run on a KeyedStream; ` +
        `call keyBy(...) before it`,
    );
  }
}
