import { resolveStateSchema, type BroadcastState, type MapStateDescriptor, type ReadOnlyBroadcastState } from '@weir/api';
import { WeirError, type StateMetaInfo } from '@weir/common';
import { RuntimeErrorCode } from '../../errors.ts';
import { normalizeKey } from '../../state/key-context.ts';
import type { OperatorStateStore } from '../../state/operator-state-store.ts';
import { metaOf } from '../../state/state-descriptors.ts';

/** The broadcast list holding broadcast state `name`'s description (kind, key and value types), checked at restore. */
export function broadcastSchemaList(name: string): string {
  return `${name}.schema`;
}

/**
 * One broadcast state of one operator subtask (Flink's HeapBroadcastState): a map in memory,
 * written to its operator list (mode `broadcast`) as [key, value] entries at each snapshot and
 * read back on restore. Keys are compared as keyed state compares them: primitives as they
 * are, arrays and objects by their canonical JSON.
 */
export class HeapBroadcastState implements BroadcastState<unknown, unknown> {
  /** Normalized key -> [key, value]. */
  readonly #map = new Map<unknown, [unknown, unknown]>();
  /** What the non-broadcast side gets: reads only, as Flink's ReadOnlyBroadcastState. */
  readonly readOnly: ReadOnlyBroadcastState<unknown, unknown>;

  readonly name: string;
  readonly #meta: StateMetaInfo;

  constructor(descriptor: MapStateDescriptor<unknown, unknown>) {
    const name = descriptor.name;
    this.name = name;
    this.#meta = metaOf(descriptor);
    const readOnly = (): never => {
      throw new WeirError(
        RuntimeErrorCode.BROADCAST_STATE_MISUSED,
        `broadcast state '${name}' is read-only in processElement (every subtask must keep the same copy); change it in processBroadcastElement`,
      );
    };
    // The write methods are there only to fail with a clear message for code that ignores the read-only type.
    this.readOnly = Object.assign(
      { get: (key: unknown) => this.get(key), contains: (key: unknown) => this.contains(key), immutableEntries: () => this.#copies() },
      { put: readOnly, putAll: readOnly, remove: readOnly, clear: readOnly },
    );
  }

  get(key: unknown): unknown {
    return this.#map.get(normalizeKey(key))?.[1];
  }

  contains(key: unknown): boolean {
    return this.#map.has(normalizeKey(key));
  }

  immutableEntries(): Iterable<readonly [unknown, unknown]> {
    return this.#copies();
  }

  put(key: unknown, value: unknown): void {
    this.#map.set(normalizeKey(key), [key, value]);
  }

  putAll(entries: Iterable<readonly [unknown, unknown]>): void {
    for (const [key, value] of entries) this.put(key, value);
  }

  remove(key: unknown): void {
    this.#map.delete(normalizeKey(key));
  }

  entries(): Iterable<[unknown, unknown]> {
    return this.#copies();
  }

  clear(): void {
    this.#map.clear();
  }

  /** The synchronous part of a checkpoint: the entries into the operator list. */
  snapshotInto(lists: OperatorStateStore): void {
    lists.broadcastList(this.name).update(this.#copies());
    lists.broadcastList(broadcastSchemaList(this.name)).update([this.#meta]);
  }

  /**
   * Restore: the entries of the copy this subtask was given (one copy, whatever the old
   * parallelism), checked against the descriptor's types as keyed state is (Flink checks the
   * serializers' compatibility): INCOMPATIBLE_STATE_SCHEMA naming the state and both types when
   * they cannot be read, values migrated when they evolved. A snapshot without the description
   * (taken before it was written) is restored as it is.
   */
  restoreFrom(lists: OperatorStateStore): void {
    const [restored] = lists.broadcastList(broadcastSchemaList(this.name)).get() as StateMetaInfo[];
    const resolution = restored === undefined ? undefined : resolveStateSchema(this.name, restored, this.#meta);
    const migrate = resolution?.kind === 'migrate' ? resolution.migrate : (value: unknown) => value;
    for (const entry of lists.broadcastList(this.name).get()) {
      const [key, value] = entry as [unknown, unknown];
      this.put(key, migrate(value));
    }
  }

  #copies(): [unknown, unknown][] {
    return [...this.#map.values()].map(([key, value]) => [key, value]);
  }
}

/** The broadcast states of one operator, by the names its broadcast(...) call registered. */
export class BroadcastStates {
  readonly #states = new Map<string, HeapBroadcastState>();

  constructor(
    descriptors: readonly MapStateDescriptor<unknown, unknown>[],
    private readonly operatorLabel: string,
  ) {
    for (const descriptor of descriptors) this.#states.set(descriptor.name, new HeapBroadcastState(descriptor));
  }

  get names(): ReadonlySet<string> {
    return new Set(this.#states.keys());
  }

  /** Flink's getBroadcastState: only descriptors the broadcast(...) call registered. */
  get(descriptor: MapStateDescriptor<unknown, unknown>): HeapBroadcastState {
    const name = (descriptor as { name?: unknown } | undefined)?.name;
    const state = typeof name === 'string' ? this.#states.get(name) : undefined;
    if (state !== undefined) return state;
    const known = [...this.#states.keys()].map((n) => `'${n}'`).join(', ');
    throw new WeirError(
      RuntimeErrorCode.BROADCAST_STATE_MISUSED,
      `${this.operatorLabel} asked for broadcast state ${typeof name === 'string' ? `'${name}'` : String(descriptor)}, which does not exist: ` +
        `this operator's broadcast(...) registered ${known}; check the descriptor's name, or pass it to broadcast(...)`,
    );
  }

  snapshotInto(lists: OperatorStateStore): void {
    for (const state of this.#states.values()) state.snapshotInto(lists);
  }

  restoreFrom(lists: OperatorStateStore): void {
    for (const state of this.#states.values()) state.restoreFrom(lists);
  }
}
