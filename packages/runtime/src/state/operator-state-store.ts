import type { ListState, ListStateDescriptor, OperatorStateStore as ApiOperatorStateStore } from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';

/**
 * How a list is redistributed when the parallelism changes: dealt round-robin (split), given
 * whole to every subtask (union), or one old subtask's copy to each new subtask (broadcast:
 * broadcast state, the same in every subtask).
 */
export type ListMode = 'split' | 'union' | 'broadcast';

/** One named list of a snapshot, copied at the synchronous part. */
export interface OperatorListSnapshot {
  readonly mode: ListMode;
  readonly entries: readonly unknown[];
}

/** Operator state lists of the runtime itself, named with a `$` that user state names cannot start with. */
export const InternalList = {
  /** The source reader's `snapshotState`. */
  SOURCE_READER: '$source-reader',
  /** The sink writer's `snapshotState`. */
  SINK_WRITER: '$sink-writer',
  /** Committables prepared for checkpoints that have not been committed yet: `{ checkpointId, committables }`. */
  SINK_COMMITTABLES: '$sink-committables',
  /** An async operator's queue: the inputs (and watermarks) not yet emitted, invoked again after a restore. */
  ASYNC_WAIT_QUEUE: '$async-wait-queue',
} as const;
export type InternalList = (typeof InternalList)[keyof typeof InternalList];

class OperatorListState<T> implements ListState<T> {
  entries: T[] = [];

  get(): Iterable<T> {
    return this.entries;
  }

  add(value: T): void {
    this.entries.push(value);
  }

  addAll(values: readonly T[]): void {
    for (const v of values) this.entries.push(v);
  }

  update(values: readonly T[]): void {
    this.entries = [...values];
  }

  clear(): void {
    this.entries = [];
  }
}

interface NamedList {
  readonly mode: ListMode;
  readonly list: OperatorListState<unknown>;
}

/**
 * The operator (non-keyed) state of one operator: named lists. CheckpointedFunctions get it
 * as their OperatorStateStore; source readers, sink writers and pending committables live in
 * the internal lists. Operator state is small by design, so a snapshot copies the lists.
 */
export class OperatorStateStore implements ApiOperatorStateStore {
  readonly #lists = new Map<string, NamedList>();

  constructor(private readonly operatorLabel: string) {}

  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T> {
    return this.#user(descriptor.name, 'split') as ListState<T>;
  }

  getUnionListState<T>(descriptor: ListStateDescriptor<T>): ListState<T> {
    return this.#user(descriptor.name, 'union') as ListState<T>;
  }

  /** The list holding broadcast state `name` as [key, value] entries (broadcast-state.ts writes it at each snapshot). */
  broadcastList(name: string): ListState<unknown> & { readonly entries: readonly unknown[] } {
    return this.#list(name, 'broadcast');
  }

  /** A list of the runtime's own (split). */
  internal(name: InternalList): ListState<unknown> & { readonly entries: readonly unknown[] } {
    return this.#list(name, 'split');
  }

  /** Restore: appends a checkpoint's entries to the named list. */
  restore(name: string, mode: ListMode, entries: readonly unknown[]): void {
    this.#list(name, mode).addAll(entries);
  }

  /** Copies of the non-empty lists, by name. */
  snapshot(): Map<string, OperatorListSnapshot> {
    const lists = new Map<string, OperatorListSnapshot>();
    for (const [name, { mode, list }] of this.#lists) {
      if (list.entries.length !== 0) lists.set(name, { mode, entries: list.entries.slice() });
    }
    return lists;
  }

  #user(name: string, mode: ListMode): OperatorListState<unknown> {
    if (name.startsWith('$')) {
      throw new WeirError(
        RuntimeErrorCode.STATE_NAME_RESERVED,
        `${this.operatorLabel} asked for operator list state '${name}'; names starting with '$' belong to the runtime, pick another name`,
      );
    }
    return this.#list(name, mode);
  }

  #list(name: string, mode: ListMode): OperatorListState<unknown> {
    const existing = this.#lists.get(name);
    if (existing !== undefined) {
      if (existing.mode !== mode) {
        throw new WeirError(
          RuntimeErrorCode.STATE_DESCRIPTOR_MISMATCH,
          `${this.operatorLabel} asked for ${mode} list state '${name}', but '${name}' is ${existing.mode} list state ` +
            `(registered or restored); use getListState for split and getUnionListState for union lists, the same one every time`,
        );
      }
      return existing.list;
    }
    const list = new OperatorListState<unknown>();
    this.#lists.set(name, { mode, list });
    return list;
  }
}
