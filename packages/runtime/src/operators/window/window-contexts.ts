import type {
  KeyedStateStore,
  ListState,
  ListStateDescriptor,
  MapState,
  MapStateDescriptor,
  OnMergeContext,
  OutputTag,
  ProcessWindowContext,
  ReducingState,
  ReducingStateDescriptor,
  RuntimeContext,
  StateDescriptor,
  ValueState,
  ValueStateDescriptor,
  Window,
  WindowAssigner,
} from '@weir/api';
import type { KeyedStateBackend } from '../../state/keyed-state-backend.ts';
import type { InternalTimerService } from '../../timers/internal-timer-service.ts';
import type { Output } from '../output.ts';

/** Namespaced state under a prefix of its own, the namespace being the window set before each use. */
class WindowStateStore implements KeyedStateStore {
  readonly #states = new Map<StateDescriptor<unknown>, unknown>();

  constructor(
    private readonly backend: KeyedStateBackend,
    private readonly prefix: string,
  ) {}

  get(descriptor: StateDescriptor<unknown>): unknown {
    let state = this.#states.get(descriptor);
    if (state === undefined) {
      state = this.backend.getNamespacedState(descriptor, `${this.prefix}${descriptor.name}`);
      this.#states.set(descriptor, state);
    }
    return state;
  }

  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T> {
    return this.get(descriptor as StateDescriptor<unknown>) as ValueState<T>;
  }

  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T> {
    return this.get(descriptor as StateDescriptor<unknown>) as ListState<T>;
  }

  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V> {
    return this.get(descriptor as StateDescriptor<unknown>) as MapState<K, V>;
  }

  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.get(descriptor as StateDescriptor<unknown>) as ReducingState<T>;
  }
}

/**
 * What a trigger sees (Flink's WindowOperator.Context): timers and state of the current key
 * and `window`. Every call sets the key context's namespace to the window first, so state a
 * trigger holds on to reads the right window.
 */
export class TriggerContextImpl implements OnMergeContext {
  window!: Window;
  /** The window's namespace, computed once per `at`. */
  namespace = '';
  /** Set while onMerge runs: the windows merged into `window`. */
  mergedWindows: readonly Window[] = [];
  readonly #store: WindowStateStore;

  constructor(
    private readonly backend: KeyedStateBackend,
    private readonly assigner: WindowAssigner<unknown, Window>,
    private readonly timers: InternalTimerService,
  ) {
    this.#store = new WindowStateStore(backend, '__weir_trigger_');
  }

  /** Makes `window` (of namespace `namespace`, when the caller has it) the context's window and the key context's namespace. */
  at(window: Window, namespace = this.assigner.namespaceOf(window)): this {
    this.window = window;
    this.namespace = namespace;
    this.backend.keys.namespace = namespace;
    return this;
  }

  getCurrentProcessingTime(): number {
    return this.timers.currentProcessingTime();
  }

  getCurrentWatermark(): number {
    return this.timers.currentWatermark();
  }

  registerProcessingTimeTimer(time: number): void {
    this.timers.registerProcessingTimeTimer(this.namespace, time);
  }

  registerEventTimeTimer(time: number): void {
    this.timers.registerEventTimeTimer(this.namespace, time);
  }

  deleteProcessingTimeTimer(time: number): void {
    this.timers.deleteProcessingTimeTimer(this.namespace, time);
  }

  deleteEventTimeTimer(time: number): void {
    this.timers.deleteEventTimeTimer(this.namespace, time);
  }

  getPartitionedState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  getPartitionedState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
  getPartitionedState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  getPartitionedState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V>;
  getPartitionedState(descriptor: StateDescriptor<unknown>): unknown {
    this.backend.keys.namespace = this.namespace;
    return this.#store.get(descriptor);
  }

  /** Folds the trigger state of the merged windows into the merge result's (reducing and list state). */
  mergePartitionedState(descriptor: ReducingStateDescriptor<unknown> | ListStateDescriptor<unknown>): void {
    const keys = this.backend.keys;
    const target = this.namespace;
    const state = this.#store.get(descriptor as StateDescriptor<unknown>) as ReducingState<unknown> | ListState<unknown>;
    const taken: unknown[] = [];
    for (const merged of this.mergedWindows) {
      const ns = this.assigner.namespaceOf(merged);
      if (ns === target) continue;
      keys.namespace = ns;
      if (descriptor.kind === 'reducing') {
        const value = (state as ReducingState<unknown>).get();
        if (value !== undefined) taken.push(value);
      } else {
        taken.push(...(state as ListState<unknown>).get());
      }
      state.clear();
    }
    keys.namespace = target;
    if (descriptor.kind === 'reducing') for (const value of taken) (state as ReducingState<unknown>).add(value);
    else (state as ListState<unknown>).addAll(taken);
  }
}

/** What a ProcessWindowFunction sees of the window it evaluates (Flink's ProcessWindowFunction.Context). */
export class ProcessWindowContextImpl implements ProcessWindowContext<Window> {
  #window!: Window;
  readonly #windowState: WindowStateStore;

  constructor(
    private readonly backend: KeyedStateBackend,
    private readonly assigner: WindowAssigner<unknown, Window>,
    private readonly timers: InternalTimerService,
    private readonly runtimeContext: RuntimeContext,
    private readonly out: Output,
  ) {
    this.#windowState = new WindowStateStore(backend, '__weir_window-state_');
  }

  at(window: Window): this {
    this.#window = window;
    this.backend.keys.namespace = this.assigner.namespaceOf(window);
    return this;
  }

  window(): Window {
    return this.#window;
  }

  currentProcessingTime(): number {
    return this.timers.currentProcessingTime();
  }

  currentWatermark(): number {
    return this.timers.currentWatermark();
  }

  windowState(): KeyedStateStore {
    this.backend.keys.namespace = this.assigner.namespaceOf(this.#window);
    return this.#windowState;
  }

  globalState(): KeyedStateStore {
    return this.runtimeContext;
  }

  output<X>(tag: OutputTag<X>, value: X): void {
    this.out.collectSide(tag.id, value);
  }
}
