import { decimalString, parseDecimal } from '@weir/common';
import type { Trigger } from './trigger.ts';
import { GlobalWindow, TimeWindow, type Window } from './windows.ts';

/** How many recent TimeWindows' namespaces an assigner keeps. */
const RECENT_WINDOWS = 64;

/** What an assigner may ask when assigning (Flink's WindowAssigner.WindowAssignerContext). */
export interface WindowAssignerContext {
  /** The operator's processing time (ms). */
  getCurrentProcessingTime(): number;
}

/**
 * Puts each element into zero or more windows (Flink's WindowAssigner). Window state and
 * timers are kept per window under `namespaceOf(window)`, and a timer's window comes back
 * through `windowOf(namespace)`: assigners of windows other than TimeWindow and GlobalWindow
 * override both. A namespace never contains U+0001: state snapshots put it between namespace and key.
 */
export abstract class WindowAssigner<T, W extends Window> {
  /**
   * Recent TimeWindows' namespaces by start: consecutive elements fall into the same few
   * windows (one tumbling window, or size/slide sliding ones), so most lookups build no string.
   */
  readonly #recent = new Map<number, { readonly end: number; readonly namespace: string }>();

  /** The windows an element with this timestamp belongs to (Flink's assignWindows). */
  abstract assignWindows(element: T, timestamp: number | undefined, context: WindowAssignerContext): W[];
  /** The trigger used unless `.trigger(...)` replaces it. */
  abstract getDefaultTrigger(): Trigger<T, W>;
  /** Whether windows are in event time (fired by watermarks) rather than processing time. */
  abstract isEventTime(): boolean;

  /** The key window state and timers are kept under for `window`; differs from Flink, which serializes the window itself. */
  namespaceOf(window: W): string {
    if (window instanceof TimeWindow) {
      const recent = this.#recent.get(window.start);
      if (recent !== undefined && recent.end === window.end) return recent.namespace;
      // Kept small: the windows of the last few elements, not of the whole run.
      if (this.#recent.size >= RECENT_WINDOWS) this.#recent.clear();
      // decimalString: String of a ms timestamp is V8's slow path; sessions make a new window per element.
      const namespace = `${decimalString(window.start)}:${decimalString(window.end)}`;
      this.#recent.set(window.start, { end: window.end, namespace });
      return namespace;
    }
    if (window instanceof GlobalWindow) return 'global';
    throw new Error(`${this.constructor.name} assigns ${String(window)}, which is not a TimeWindow or GlobalWindow; override namespaceOf and windowOf`);
  }

  /** The window a namespace from `namespaceOf` stands for (a timer's window when it fires). */
  windowOf(namespace: string): W {
    if (namespace === 'global') return GlobalWindow.get() as unknown as W;
    const colon = namespace.indexOf(':', 1);
    return new TimeWindow(parseDecimal(namespace, 0, colon), parseDecimal(namespace, colon + 1, namespace.length)) as unknown as W;
  }
}

/** Receives the merges a MergingWindowAssigner finds. */
export interface MergeCallback<W> {
  /** Called with windows that merge into `result`. */
  merge(toBeMerged: W[], mergeResult: W): void;
}

/** An assigner whose windows merge as elements arrive (sessions): Flink's MergingWindowAssigner. */
export abstract class MergingWindowAssigner<T, W extends Window> extends WindowAssigner<T, W> {
  /** Merges overlapping windows (session windows), telling `callback` which merged into which. */
  abstract mergeWindows(windows: readonly W[], callback: MergeCallback<W>): void;
}

/** Whether `assigner` merges windows (a MergingWindowAssigner: session windows). */
export function isMergingAssigner<T, W extends Window>(assigner: WindowAssigner<T, W>): assigner is MergingWindowAssigner<T, W> {
  return assigner instanceof MergingWindowAssigner;
}
