import {
  ListStateDescriptor,
  TimestampedValue,
  Types,
  type Evictor,
  type EvictorContext,
  type ListState,
  type Window,
  type WindowFunctionSpec,
} from '@weir/api';
import type { KeyContext } from '../../state/key-context.ts';
import type { KeyedStateBackend } from '../../state/keyed-state-backend.ts';
import type { FailureWrapper } from '../operator-failure.ts';
import { CONTENTS_STATE, ListContents, type WindowContents } from './window-contents.ts';

/** A window element as kept: its timestamp (null without one: MessagePack has no undefined) and its value. */
type Entry = [timestamp: number | null, value: unknown];

/**
 * The contents of a window with an evictor (Flink's EvictingWindowOperator): every element
 * with its timestamp, whatever the window function. When the window fires, the evictor's
 * evictBefore sees the elements, the function gets what is left (`reduce` and `aggregate`
 * run over them here, not per element), then evictAfter sees them, and what is left after
 * both is the window's contents from then on.
 */
export function evictingContents(
  fn: WindowFunctionSpec,
  evictor: Evictor<unknown, Window>,
  backend: KeyedStateBackend,
  failures: FailureWrapper,
  context: EvictorContext,
): WindowContents {
  const descriptor = new ListStateDescriptor<unknown>(CONTENTS_STATE, Types.GENERIC());
  const state = backend.getNamespacedState(descriptor, CONTENTS_STATE) as ListState<Entry>;
  return new EvictingContents(state, fn, evictor, backend.keys, failures, context);
}

class EvictingContents implements WindowContents {
  readonly #list: ListContents;

  constructor(
    private readonly state: ListState<Entry>,
    private readonly fn: WindowFunctionSpec,
    private readonly evictor: Evictor<unknown, Window>,
    private readonly keys: KeyContext,
    private readonly failures: FailureWrapper,
    private readonly context: EvictorContext,
  ) {
    this.#list = new ListContents(state as ListState<unknown>, keys);
  }

  add(value: unknown, timestamp: number | undefined): void {
    this.#list.add([timestamp ?? null, value] satisfies Entry);
  }

  /** As in Flink, an empty window does not fire, but one that evictBefore empties does: its function gets no elements. */
  fire(window: Window, emit: (contents: unknown) => void): void {
    const entries = this.state.get() as readonly Entry[];
    if (entries.length === 0) return;
    const namespace = this.keys.namespace;
    const elements = entries.map(([timestamp, value]) => new TimestampedValue(value, timestamp ?? undefined));
    const { evictor, context } = this;
    this.failures.run(() => evictor.evictBefore(elements, elements.length, window, context));
    const input = this.#functionInput(elements.map((element) => element.getValue()));
    if (input !== undefined) emit(input);
    this.failures.run(() => evictor.evictAfter(elements, elements.length, window, context));
    // The window function may have read its window state under another namespace.
    this.keys.namespace = namespace;
    if (elements.length === 0) this.state.clear();
    else this.state.update(elements.map((element): Entry => [element.hasTimestamp() ? element.getTimestamp() : null, element.getValue()]));
  }

  /**
   * What the window function gets: the elements for `process`; their reduction for `reduce`
   * (nothing when none are left: Flink would hand on null); an accumulator of them for
   * `aggregate` (an empty one when none are left, as in Flink).
   */
  #functionInput(values: unknown[]): unknown {
    const fn = this.fn;
    switch (fn.kind) {
      case 'process':
        return values;
      case 'reduce':
        return values.length === 0 ? undefined : this.failures.run(() => values.reduce((a, b) => fn.reduce.reduce(a, b)));
      case 'aggregate':
        return this.failures.run(() => values.reduce((accumulator, value) => fn.aggregate.add(value, accumulator), fn.aggregate.createAccumulator()));
    }
  }

  clear(): void {
    this.#list.clear();
  }

  merge(target: string, sources: readonly string[]): void {
    this.#list.merge(target, sources);
  }
}
