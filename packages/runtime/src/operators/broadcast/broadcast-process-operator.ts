import {
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  ValueStateDescriptor,
  type BroadcastProcessFunction,
  type Collector,
  type KeyedBroadcastProcessFunction,
  type KeySelector,
  type StateDescriptor,
} from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../../errors.ts';
import { HeapKeyedStateBackend } from '../../state/heap-keyed-state-backend.ts';
import type { KeyedStateBackend } from '../../state/keyed-state-backend.ts';
import { LevelKeyedStateBackend } from '../../state/level/level-keyed-state-backend.ts';
import type { PendingWork } from '../pending-work.ts';
import { FunctionOperator } from '../function-operator.ts';
import type { OperatorContext } from '../operator-context.ts';
import type { Output } from '../output.ts';
import { FunctionContext, type UserTimerService } from '../process-context.ts';
import { TimerHost, type WithOnTimer } from '../process-operators.ts';
import { BroadcastStates } from './broadcast-state.ts';

type AnyBroadcastFunction = BroadcastProcessFunction<unknown, unknown, unknown> | KeyedBroadcastProcessFunction<unknown, unknown, unknown, unknown>;

/**
 * The context of a broadcast function: FunctionContext's timestamp, timers, side outputs and
 * key, plus the broadcast states, writable only while a broadcast element is processed (Flink
 * hands out a ReadOnlyContext and a Context; here one reused object switches between them).
 */
class BroadcastFunctionContext extends FunctionContext {
  broadcastSide = false;

  readonly #states: BroadcastStates;
  readonly #timers: UserTimerService;
  readonly #keyed: KeyedStateBackend | undefined;
  readonly #label: string;
  readonly #work: PendingWork;

  constructor(args: ConstructorParameters<typeof FunctionContext>, states: BroadcastStates, keyed: KeyedStateBackend | undefined, label: string, work: PendingWork) {
    super(...args);
    this.#states = states;
    this.#timers = args[3];
    this.#keyed = keyed;
    this.#label = label;
    this.#work = work;
  }

  getBroadcastState(descriptor: MapStateDescriptor<unknown, unknown>): unknown {
    const state = this.#states.get(descriptor);
    return this.broadcastSide ? state : state.readOnly;
  }

  currentProcessingTime(): number {
    return this.#timers.currentProcessingTime();
  }

  currentWatermark(): number {
    return this.#timers.currentWatermark();
  }

  /**
   * Flink's applyToKeyedState: `fn(key, state)` for every key of this subtask with a value of
   * `descriptor`'s state. The heap backend visits its keys now. The LevelDB backend's keys can
   * only be iterated asynchronously (classic-level has no synchronous iterator, unlike
   * RocksDB's that Flink uses), so there `fn` runs as a step of the task's pending work once
   * the keys are read: after processBroadcastElement returns and before the task takes its
   * next record of either input or barrier (differs from Flink: code after the call in
   * processBroadcastElement does not see what `fn` did).
   */
  applyToKeyedState(descriptor: StateDescriptor<unknown>, fn: (key: unknown, state: unknown) => void): void {
    const backend = this.#keyed;
    if (!this.broadcastSide || backend === undefined) {
      throw new WeirError(RuntimeErrorCode.BROADCAST_STATE_MISUSED, `${this.#label}: applyToKeyedState() is only available in processBroadcastElement of a KeyedBroadcastProcessFunction`);
    }
    const state = stateOf(backend, descriptor);
    if (backend instanceof HeapKeyedStateBackend) {
      // The keys first: `fn` may clear a key's state, which changes the table being visited.
      const groups = backend.keysOf(descriptor.name).map(([normalized, groupIndex]): [unknown, number] => [normalized, backend.keys.range.start + groupIndex]);
      visitKeys(backend, groups, state, fn);
      return;
    }
    if (backend instanceof LevelKeyedStateBackend) {
      this.#work.addStep(async () => visitKeys(backend, await backend.keysOfAsync(descriptor.name), state, fn));
      return;
    }
    throw new WeirError(RuntimeErrorCode.KEYED_STATE_ITERATION_UNSUPPORTED, `${this.#label}: applyToKeyedState() cannot visit the keys of the ${backend.kind} state backend`);
  }
}

/** `fn(key, state)` with each key current in its key group. */
function visitKeys(backend: KeyedStateBackend, groups: readonly [unknown, number][], state: unknown, fn: (key: unknown, state: unknown) => void): void {
  const keys = backend.keys;
  for (const [normalized, keyGroup] of groups) {
    const key = denormalizeKey(normalized);
    keys.setCurrentKeyInGroup(key, keyGroup);
    try {
      fn(key, state);
    } finally {
      keys.clearCurrentKey();
    }
  }
}

/** The state object of `descriptor` (its kind picks the getter), reading the current key's value. */
function stateOf(backend: KeyedStateBackend, descriptor: StateDescriptor<unknown>): unknown {
  if (descriptor instanceof ValueStateDescriptor) return backend.getState(descriptor);
  if (descriptor instanceof ListStateDescriptor) return backend.getListState(descriptor);
  if (descriptor instanceof MapStateDescriptor) return backend.getMapState(descriptor);
  if (descriptor instanceof ReducingStateDescriptor) return backend.getReducingState(descriptor as ReducingStateDescriptor<unknown>);
  throw new WeirError(RuntimeErrorCode.STATE_DESCRIPTOR_MISMATCH, `applyToKeyedState() takes a Value, List, Map or Reducing state descriptor, got ${String(descriptor)}`);
}

/** The key a keyed state table holds normalized (key-context.ts's normalizeKey): arrays and objects are canonical JSON behind a NUL. */
function denormalizeKey(normalized: unknown): unknown {
  return typeof normalized === 'string' && normalized.startsWith('\u0000') ? JSON.parse(normalized.slice(1)) : normalized;
}

/**
 * Flink's CoBroadcastWithNonKeyedOperator and CoBroadcastWithKeyedOperator: input 0 is the
 * (possibly keyed) stream, calling processElement with the broadcast state read-only; input 1
 * the broadcast stream, calling processBroadcastElement with it writable (no current key
 * there). The broadcast states are operator state of mode `broadcast`: each subtask snapshots
 * its copy, and a restore at any parallelism gives each subtask one copy.
 */
export class BroadcastProcessOperator extends FunctionOperator<AnyBroadcastFunction> {
  readonly inputs: readonly Collector<unknown>[];
  readonly #host: TimerHost;
  readonly #states: BroadcastStates;
  readonly #ctx: BroadcastFunctionContext;

  constructor(fn: AnyBroadcastFunction, out: Output, context: OperatorContext, descriptors: readonly MapStateDescriptor<unknown, unknown>[], key: KeySelector<unknown, unknown> | undefined) {
    super(fn, out, context);
    this.#states = new BroadcastStates(descriptors, context.label);
    context.runtimeContext.reserveBroadcastStateNames(this.#states.names);
    this.#host = new TimerHost(fn as WithOnTimer, out, context, (timers) => {
      const args: ConstructorParameters<typeof FunctionContext> = [context.subtaskIndex, context.timestamp, out, timers, context.keyed?.keys];
      return new BroadcastFunctionContext(args, this.#states, context.keyed, context.label, context.work);
    });
    this.#ctx = this.#host.ctx as BroadcastFunctionContext;
    const elements: Collector<unknown> = { collect: (record) => this.#processElement(record) };
    const broadcast: Collector<unknown> = { collect: (record) => this.#processBroadcastElement(record) };
    this.inputs = [this.keyedInput(key, elements), broadcast];
  }

  override async open(): Promise<void> {
    if (this.context.restored) this.#states.restoreFrom(this.context.lists);
    await this.#host.open();
    await super.open();
  }

  override processWatermark(timestamp: number): void {
    this.#host.processWatermark(timestamp);
  }

  override async snapshotState(checkpointId: number, timestamp: number): Promise<void> {
    this.#states.snapshotInto(this.context.lists);
    await super.snapshotState(checkpointId, timestamp);
  }

  override async close(): Promise<void> {
    this.#host.close();
    await super.close();
  }

  #processElement(record: unknown): void {
    try {
      (this.fn as BroadcastProcessFunction<unknown, unknown, unknown>).processElement(record, this.#ctx as never, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }

  #processBroadcastElement(record: unknown): void {
    // A broadcast element belongs to no key: keyed state is reached through applyToKeyedState only.
    this.context.keyed?.keys.clearCurrentKey();
    const ctx = this.#ctx;
    ctx.broadcastSide = true;
    try {
      (this.fn as BroadcastProcessFunction<unknown, unknown, unknown>).processBroadcastElement(record, ctx as never, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    } finally {
      ctx.broadcastSide = false;
    }
  }
}
