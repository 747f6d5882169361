import { isMergingAssigner, type TriggerResult, type KeySelector, type MergingWindowAssigner, type ValueState, type Window, type WindowSpec } from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../../errors.ts';
import type { KeyedStateBackend } from '../../state/keyed-state-backend.ts';
import { InternalTimerService, type InternalTimer } from '../../timers/internal-timer-service.ts';
import { closeFunction, openFunction } from '../chain-operator.ts';
import { initializeFunctionState, notifyListener, snapshotFunctionState } from '../checkpoint-hooks.ts';
import { SingleInputOperator } from '../function-operator.ts';
import type { OperatorContext } from '../operator-context.ts';
import type { Output } from '../output.ts';
import { MergingWindowSet } from './merging-window-set.ts';
import { ProcessWindowContextImpl, TriggerContextImpl } from './window-contexts.ts';
import { evictingContents } from './evicting-contents.ts';
import { windowContents, type WindowContents } from './window-contents.ts';

/**
 * A keyed window (Flink's WindowOperator): assigns each element to windows, keeps their
 * contents as namespaced keyed state (one namespace per window, or per state window of merged
 * sessions), asks the trigger per element and per timer, and evaluates a window when it fires.
 * Every window has a cleanup timer at its end plus the allowed lateness: then its contents,
 * trigger state, window state and merging-set entry are removed, so nothing outlives it.
 * Elements for windows already cleaned up are late: sent to the late-data side output, or dropped.
 * With an evictor, the contents are every element with its timestamp (evicting-contents.ts).
 */
export class WindowOperator extends SingleInputOperator<WindowSpec> {
  readonly #backend: KeyedStateBackend;
  readonly #timers: InternalTimerService;
  readonly #contents: WindowContents;
  readonly #trigger: TriggerContextImpl;
  readonly #process: ProcessWindowContextImpl;
  readonly #merging: MergingWindowAssigner<unknown, Window> | undefined;
  readonly #mergingState: ValueState<[string, string][]> | undefined;
  readonly #eventTime: boolean;
  readonly #assignerContext: { getCurrentProcessingTime(): number };
  /** The window of the last timer's namespace: the timers of one window fire one after another, for key after key. */
  #timerWindow: { namespace: string; window: Window } | undefined;
  /** Late elements dropped (no late-data side output). */
  lateRecordsDropped = 0;

  constructor(spec: WindowSpec, out: Output, context: OperatorContext, key: KeySelector<unknown, unknown>) {
    super(spec, out, context, key);
    const backend = context.keyed!;
    this.#backend = backend;
    this.#timers = new InternalTimerService('window', backend, context.processingTime, {
      onEventTime: (timer) => this.#onTimer(timer, true),
      onProcessingTime: (timer) => this.#onTimer(timer, false),
    }, context.work);
    const timers = this.#timers;
    this.#contents =
      spec.evictor === undefined
        ? windowContents(spec.function, backend, context.failures)
        : evictingContents(spec.function, spec.evictor, backend, context.failures, {
            getCurrentProcessingTime: () => timers.currentProcessingTime(),
            getCurrentWatermark: () => timers.currentWatermark(),
          });
    this.#trigger = new TriggerContextImpl(backend, spec.assigner, this.#timers);
    this.#process = new ProcessWindowContextImpl(backend, spec.assigner, this.#timers, context.runtimeContext, out);
    this.#merging = isMergingAssigner(spec.assigner) ? spec.assigner : undefined;
    this.#mergingState = this.#merging === undefined ? undefined : backend.getInternalValueState<[string, string][]>('merging-windows');
    this.#eventTime = spec.assigner.isEventTime();
    this.#assignerContext = { getCurrentProcessingTime: () => context.processingTime.currentProcessingTime() };
  }

  /** The window function holds the lifecycle (a ProcessWindowFunction may be a RichFunction); timers are restored first. */
  override async open(): Promise<void> {
    if (this.context.restored) await this.#timers.restore();
    const fn = this.fn.function.process;
    if (fn !== undefined) await openFunction(fn, this.context.runtimeContext, this.context.failures, () => initializeFunctionState(fn, this.context));
    this.#backend.keys.clearCurrentKey();
  }

  override async close(): Promise<void> {
    this.#timers.close();
    this.#backend.keys.clearCurrentKey();
    const fn = this.fn.function.process;
    if (fn !== undefined) await closeFunction(fn, this.context.failures);
  }

  /** The window function is the user function here: it gets the checkpoint hooks a CheckpointedFunction or CheckpointListener asks for. */
  override async snapshotState(checkpointId: number, timestamp: number): Promise<void> {
    this.#backend.keys.clearCurrentKey();
    snapshotFunctionState(this.fn.function.process, this.context.failures, checkpointId, timestamp);
  }

  override notifyCheckpointComplete(checkpointId: number): Promise<void> {
    return notifyListener(this.fn.function.process, this.context.failures, checkpointId, true);
  }

  override notifyCheckpointAborted(checkpointId: number): Promise<void> {
    return notifyListener(this.fn.function.process, this.context.failures, checkpointId, false);
  }

  override processWatermark(timestamp: number): void {
    this.#timers.advanceWatermark(timestamp, () => this.out.emitWatermark(timestamp));
  }

  collect(record: unknown): void {
    const timestamp = this.context.timestamp.value;
    const { assigner } = this.fn;
    let windows: Window[];
    try {
      windows = assigner.assignWindows(record, timestamp, this.#assignerContext);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    const added = this.#merging === undefined ? this.#addToWindows(record, timestamp, windows) : this.#addToSessions(record, timestamp, windows);
    if (!added && this.#isElementLate(timestamp)) {
      const tag = this.fn.lateDataTag;
      if (tag === undefined) this.lateRecordsDropped++;
      else this.out.collectSide(tag, record);
    }
  }

  /** True when some window took the element. */
  #addToWindows(record: unknown, timestamp: number | undefined, windows: readonly Window[]): boolean {
    let added = false;
    const keys = this.#backend.keys;
    for (const window of windows) {
      if (this.#isWindowLate(window)) continue;
      added = true;
      const ns = this.fn.assigner.namespaceOf(window);
      keys.namespace = ns;
      this.#contents.add(record, timestamp);
      const result = this.#triggerOnElement(record, timestamp, window, ns);
      this.#afterTrigger(result, window, ns);
      this.#registerCleanupTimer(window, ns);
    }
    return added;
  }

  #addToSessions(record: unknown, timestamp: number | undefined, windows: readonly Window[]): boolean {
    const sessions = MergingWindowSet.load(this.#merging!, this.#mergingState!);
    let added = false;
    for (const window of windows) {
      const actual = sessions.addWindow(window, (result, mergedWindows, stateWindow, mergedStateWindows) => {
        this.#requireNotBehind(result);
        const trigger = this.#trigger.at(result);
        trigger.mergedWindows = mergedWindows;
        try {
          this.fn.trigger.onMerge(result, trigger);
          for (const merged of mergedWindows) {
            this.fn.trigger.clear(merged, this.#trigger.at(merged));
            this.#deleteCleanupTimer(merged);
          }
        } catch (err) {
          throw this.context.failures.wrap(err);
        } finally {
          trigger.mergedWindows = [];
        }
        const namespaceOf = (w: Window): string => this.fn.assigner.namespaceOf(w);
        this.#contents.merge(namespaceOf(stateWindow), mergedStateWindows.map(namespaceOf));
      });
      if (this.#isWindowLate(actual)) {
        sessions.retireWindow(actual);
        continue;
      }
      added = true;
      const stateNs = this.fn.assigner.namespaceOf(sessions.getStateWindow(actual)!);
      this.#backend.keys.namespace = stateNs;
      this.#contents.add(record, timestamp);
      const ns = this.fn.assigner.namespaceOf(actual);
      this.#afterTrigger(this.#triggerOnElement(record, timestamp, actual, ns), actual, stateNs);
      this.#registerCleanupTimer(actual, ns);
    }
    sessions.persist();
    return added;
  }

  #triggerOnElement(record: unknown, timestamp: number | undefined, window: Window, ns: string): TriggerResult {
    try {
      return this.fn.trigger.onElement(record, timestamp ?? Number.NEGATIVE_INFINITY, window, this.#trigger.at(window, ns));
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }

  /** Fires and/or purges `window`, whose contents are under the namespace `stateNs`. */
  #afterTrigger(result: TriggerResult, window: Window, stateNs: string): void {
    if (!result.isFire() && !result.isPurge()) return;
    const keys = this.#backend.keys;
    keys.namespace = stateNs;
    if (result.isFire()) this.#contents.fire(window, (contents) => this.#emit(window, contents));
    if (result.isPurge()) {
      keys.namespace = stateNs;
      this.#contents.clear();
    }
  }

  #onTimer(timer: InternalTimer, eventTime: boolean): void {
    const window = this.#windowOf(timer.namespace);
    let sessions: MergingWindowSet<Window> | undefined;
    let stateWindow = window;
    if (this.#merging !== undefined) {
      sessions = MergingWindowSet.load(this.#merging, this.#mergingState!);
      const found = sessions.getStateWindow(window);
      // Purged already: a cleanup timer with nothing left to clean.
      if (found === undefined) return;
      stateWindow = found;
    }
    let result: TriggerResult;
    try {
      const ctx = this.#trigger.at(window);
      result = eventTime ? this.fn.trigger.onEventTime(timer.timestamp, window, ctx) : this.fn.trigger.onProcessingTime(timer.timestamp, window, ctx);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    const stateNs = this.fn.assigner.namespaceOf(stateWindow);
    this.#afterTrigger(result, window, stateNs);
    if (eventTime === this.#eventTime && this.#cleanupTime(window) === timer.timestamp) this.#clearAllState(window, stateNs, sessions);
    sessions?.persist();
  }

  #windowOf(namespace: string): Window {
    const last = this.#timerWindow;
    if (last !== undefined && last.namespace === namespace) return last.window;
    const window = this.fn.assigner.windowOf(namespace);
    this.#timerWindow = { namespace, window };
    return window;
  }

  /** The window's end (plus allowed lateness) passed: contents, trigger state and timers, window state, merging-set entry. */
  #clearAllState(window: Window, stateNs: string, sessions: MergingWindowSet<Window> | undefined): void {
    this.#backend.keys.namespace = stateNs;
    this.#contents.clear();
    const process = this.fn.function.process;
    try {
      this.fn.trigger.clear(window, this.#trigger.at(window));
      if (typeof process?.clear === 'function') process.clear(this.#process.at(window));
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
    sessions?.retireWindow(window);
  }

  #emit(window: Window, contents: unknown): void {
    const slot = this.context.timestamp;
    const previous = slot.value;
    slot.value = window.maxTimestamp();
    const fn = this.fn.function;
    try {
      const result = fn.kind === 'aggregate' ? fn.aggregate.getResult(contents) : contents;
      if (fn.process === undefined) this.out.collect(result);
      else fn.process.process(this.#backend.keys.key, this.#process.at(window), fn.kind === 'process' ? (result as Iterable<unknown>) : [result], this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    } finally {
      slot.value = previous;
    }
  }

  #cleanupTime(window: Window): number {
    return this.#eventTime ? window.maxTimestamp() + this.fn.allowedLatenessMs : window.maxTimestamp();
  }

  #registerCleanupTimer(window: Window, ns: string): void {
    const time = this.#cleanupTime(window);
    // GlobalWindow: nothing ever cleans it up but its trigger.
    if (time === Number.POSITIVE_INFINITY) return;
    if (this.#eventTime) this.#timers.registerEventTimeTimer(ns, time);
    else this.#timers.registerProcessingTimeTimer(ns, time);
  }

  #deleteCleanupTimer(window: Window): void {
    const time = this.#cleanupTime(window);
    if (time === Number.POSITIVE_INFINITY) return;
    const ns = this.fn.assigner.namespaceOf(window);
    if (this.#eventTime) this.#timers.deleteEventTimeTimer(ns, time);
    else this.#timers.deleteProcessingTimeTimer(ns, time);
  }

  #isWindowLate(window: Window): boolean {
    return this.#eventTime && this.#cleanupTime(window) <= this.#timers.currentWatermark();
  }

  #isElementLate(timestamp: number | undefined): boolean {
    return this.#eventTime && timestamp !== undefined && timestamp + this.fn.allowedLatenessMs <= this.#timers.currentWatermark();
  }

  /** As in Flink: merging may not make a window end before the watermark (a custom merging assigner's mistake). */
  #requireNotBehind(result: Window): void {
    const behind = this.#eventTime
      ? this.#cleanupTime(result) <= this.#timers.currentWatermark()
      : result.maxTimestamp() <= this.#timers.currentProcessingTime();
    if (!behind) return;
    throw new WeirError(
      RuntimeErrorCode.INVALID_WINDOW_MERGE,
      `${this.label}: merging windows made ${String(result)} end before the current ${this.#eventTime ? 'watermark' : 'processing time'}; ` +
        'a merging window assigner may only merge windows into windows that end later',
    );
  }
}
