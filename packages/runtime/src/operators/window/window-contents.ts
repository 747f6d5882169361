import {
  ListStateDescriptor,
  ReducingStateDescriptor,
  Types,
  ValueStateDescriptor,
  type AggregateFunction,
  type ListState,
  type ReducingState,
  type ValueState,
  type Window,
  type WindowFunctionSpec,
} from '@weir/api';
import type { KeyContext } from '../../state/key-context.ts';
import type { KeyedStateBackend } from '../../state/keyed-state-backend.ts';
import type { FailureWrapper } from '../operator-failure.ts';

/** The name window contents are kept under: one namespaced state per window operator. */
export const CONTENTS_STATE = '__weir_window-contents';

/**
 * What a window keeps, under the key context's current namespace: one reduced value
 * (`reduce`), one accumulator (`aggregate`) or every element (`process`); with an evictor,
 * every element with its timestamp (evicting-contents.ts). `fire` hands what the window
 * function gets to `emit`, unless the window is empty; `merge` folds the contents of other
 * namespaces into one (merging session windows).
 */
export interface WindowContents {
  add(value: unknown, timestamp: number | undefined): void;
  fire(window: Window, emit: (contents: unknown) => void): void;
  clear(): void;
  merge(target: string, sources: readonly string[]): void;
}

export function windowContents(fn: WindowFunctionSpec, backend: KeyedStateBackend, failures: FailureWrapper): WindowContents {
  switch (fn.kind) {
    case 'reduce': {
      const reduce = fn.reduce;
      const descriptor = new ReducingStateDescriptor<unknown>(CONTENTS_STATE, (a, b) => failures.run(() => reduce.reduce(a, b)), Types.GENERIC());
      return new ReducedContents(backend.getNamespacedState(descriptor, CONTENTS_STATE) as ReducingState<unknown>, backend.keys);
    }
    case 'aggregate': {
      const descriptor = new ValueStateDescriptor<unknown>(CONTENTS_STATE, Types.GENERIC());
      return new AggregatedContents(backend.getNamespacedState(descriptor, CONTENTS_STATE) as ValueState<unknown>, fn.aggregate, backend.keys, failures);
    }
    case 'process': {
      const descriptor = new ListStateDescriptor<unknown>(CONTENTS_STATE, Types.GENERIC());
      return new ListContents(backend.getNamespacedState(descriptor, CONTENTS_STATE) as ListState<unknown>, backend.keys);
    }
  }
}

class ReducedContents implements WindowContents {
  constructor(
    private readonly state: ReducingState<unknown>,
    private readonly keys: KeyContext,
  ) {}

  add(value: unknown): void {
    this.state.add(value);
  }

  fire(_window: Window, emit: (contents: unknown) => void): void {
    const reduced = this.state.get();
    if (reduced !== undefined) emit(reduced);
  }

  clear(): void {
    this.state.clear();
  }

  merge(target: string, sources: readonly string[]): void {
    const values = takeAll(this.keys, sources, () => this.state.get(), () => this.state.clear());
    this.keys.namespace = target;
    for (const value of values) this.state.add(value);
  }
}

class AggregatedContents implements WindowContents {
  constructor(
    private readonly state: ValueState<unknown>,
    private readonly fn: AggregateFunction<unknown, unknown, unknown>,
    private readonly keys: KeyContext,
    private readonly failures: FailureWrapper,
  ) {}

  add(value: unknown): void {
    const fn = this.fn;
    const accumulator = this.state.value();
    let next: unknown;
    try {
      next = fn.add(value, accumulator === undefined ? fn.createAccumulator() : accumulator);
    } catch (err) {
      throw this.failures.wrap(err);
    }
    this.state.update(next);
  }

  /** Emits the accumulator; the operator turns it into the result with getResult. */
  fire(_window: Window, emit: (contents: unknown) => void): void {
    const accumulator = this.state.value();
    if (accumulator !== undefined) emit(accumulator);
  }

  clear(): void {
    this.state.clear();
  }

  merge(target: string, sources: readonly string[]): void {
    const accumulators = takeAll(this.keys, sources, () => this.state.value(), () => this.state.clear());
    this.keys.namespace = target;
    const fn = this.fn;
    let merged = this.state.value();
    for (const accumulator of accumulators) merged = merged === undefined ? accumulator : this.failures.run(() => fn.merge(merged, accumulator));
    if (merged !== undefined) this.state.update(merged);
  }
}

/** Every element in a list; also what a window with an evictor keeps its timestamped elements in. */
export class ListContents implements WindowContents {
  constructor(
    private readonly state: ListState<unknown>,
    private readonly keys: KeyContext,
  ) {}

  add(value: unknown): void {
    this.state.add(value);
  }

  fire(_window: Window, emit: (contents: unknown) => void): void {
    const elements = this.state.get();
    if ((elements as readonly unknown[]).length !== 0) emit(elements);
  }

  clear(): void {
    this.state.clear();
  }

  merge(target: string, sources: readonly string[]): void {
    const lists = takeAll(this.keys, sources, () => [...this.state.get()], () => this.state.clear());
    this.keys.namespace = target;
    for (const list of lists) this.state.addAll(list);
  }
}

/** Reads and clears the contents of each source namespace. */
function takeAll<T>(keys: KeyContext, sources: readonly string[], read: () => T | undefined, clear: () => void): T[] {
  const taken: T[] = [];
  for (const source of sources) {
    keys.namespace = source;
    const value = read();
    if (value !== undefined) taken.push(value);
    clear();
  }
  return taken;
}
