import { Types, ValueStateDescriptor, type ValueState } from '@weir/api';
import { decimalString } from '@weir/common';
import type { PendingWork } from '../operators/pending-work.ts';
import type { KeyContext } from '../state/key-context.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import type { ProcessingTimeService } from '../time/processing-time-service.ts';
import { TimerHeap, type TimerEntry } from './timer-heap.ts';

/** A timer as it fires: the key is current when the operator sees it. */
export interface InternalTimer {
  readonly timestamp: number;
  readonly key: unknown;
  /** '' for the timers of a process function; a window's namespace for a window operator's. */
  readonly namespace: string;
}

/** What fires when a timer is due; the timer's key is the current key. */
export interface Triggerable {
  onEventTime(timer: InternalTimer): void;
  onProcessingTime(timer: InternalTimer): void;
}

const EVENT = 0;
const PROCESSING = 1;
type Domain = typeof EVENT | typeof PROCESSING;

/** A timer as keyed state holds it: the key as given (getCurrentKey returns it after a restore), the time domain, the namespace, the time. */
type StoredTimer = [key: unknown, domain: Domain, namespace: string, timestamp: number];

/** At most this many timers fire in one turn of the task's loop... */
export const TIMERS_PER_SLICE = 4096;
/** ...or for this many milliseconds, whichever comes first; then the TaskManager's event loop (heartbeats, gRPC, credits) gets a turn. */
const SLICE_MS = 5;

/** A watermark whose due timers have not all fired yet, and what runs once they have. */
interface PendingWatermark {
  readonly time: number;
  readonly done: () => void;
}

/**
 * The timers of one keyed operator (Flink's InternalTimerServiceImpl). Timers are keyed state:
 * every timer is one entry of the internal state `__weir_timers_<name>`, under its key and a
 * namespace of its own (domain, time and window), so they are in every checkpoint and savepoint
 * of either backend, in their key's key group, and move with it on rescale; registering or
 * firing one touches only its own entry. In memory, a heap per time domain orders them by
 * timestamp and an index dedups them per (domain, timestamp, namespace, key); both are rebuilt
 * from state on restore.
 *
 * Event-time timers fire in `advanceWatermark`, processing-time timers from the task's
 * ProcessingTimeService, both on the task's loop between records. A processing-time timer
 * already due when registered or restored fires at once.
 *
 * Timers fire in slices of at most TIMERS_PER_SLICE timers or SLICE_MS: a watermark that
 * makes more due (the end of input's, or one that jumps after a slow input caught up, can
 * make every window of the job due at once) fires the rest as a step of the task's
 * PendingWork, yielding to the event loop between slices, so the task takes no record before
 * they all fired and the TaskManager still answers heartbeats. The watermark goes on
 * (`done`) once its timers fired, as in Flink. No timer fires while an operator chained
 * behind is at capacity (ChainBackPressure): the rest fire once it takes input again.
 */
export class InternalTimerService {
  /** Registered with the first timer, so an operator that never sets one has no timer state in its snapshots. */
  #stored: ValueState<StoredTimer> | undefined;
  readonly #keys: KeyContext;
  /** Per domain: timestamp -> namespace -> normalized key -> timer. Nested maps of the values as they are, so a lookup builds no string. */
  readonly #registered: [TimerIndex, TimerIndex] = [new Map(), new Map()];
  readonly #heaps: [TimerHeap, TimerHeap] = [new TimerHeap(), new TimerHeap()];
  /** The last timer registered: a window's trigger and cleanup register the same one for every element. */
  #last: TimerEntry | undefined;
  #lastDomain: Domain = EVENT;
  /** The namespace of the last timer entry written to state, and what it was made of: the timers of one window share it. */
  #entryNamespace = '';
  #entryOf: { domain: Domain; time: number; namespace: string } = { domain: EVENT, time: Number.NaN, namespace: '' };
  #sequence = 0;
  #watermark = Number.NEGATIVE_INFINITY;
  /** Watermarks whose timers fire in later slices, oldest first. */
  readonly #pendingWatermarks: PendingWatermark[] = [];
  #closed = false;
  /** The processing time the next wake-up is scheduled for, and how to cancel it. */
  #wakeUpAt = Number.POSITIVE_INFINITY;
  #cancelWakeUp: (() => void) | undefined;

  constructor(
    private readonly name: string,
    private readonly backend: KeyedStateBackend,
    private readonly processingTime: ProcessingTimeService,
    private readonly triggerable: Triggerable,
    /** The task's pending work: where the timers a watermark makes due beyond one slice fire. */
    private readonly work: PendingWork,
  ) {
    this.#keys = backend.keys;
  }

  get #state(): ValueState<StoredTimer> {
    const name = `__weir_timers_${this.name}`;
    return (this.#stored ??= this.backend.getNamespacedState(new ValueStateDescriptor(name, Types.GENERIC()), name) as ValueState<StoredTimer>);
  }

  /** The last watermark this operator saw: -Infinity before the first. */
  currentWatermark(): number {
    return this.#watermark;
  }

  currentProcessingTime(): number {
    return this.processingTime.currentProcessingTime();
  }

  registerEventTimeTimer(namespace: string, time: number): void {
    this.#register(EVENT, namespace, time);
  }

  registerProcessingTimeTimer(namespace: string, time: number): void {
    if (this.#register(PROCESSING, namespace, time) && time < this.#wakeUpAt) this.#scheduleWakeUp(time);
  }

  deleteEventTimeTimer(namespace: string, time: number): void {
    this.#delete(EVENT, namespace, time);
  }

  deleteProcessingTimeTimer(namespace: string, time: number): void {
    this.#delete(PROCESSING, namespace, time);
  }

  /** Timers registered and not fired or deleted. */
  get eventTimeTimers(): number {
    return this.#heaps[EVENT].size;
  }

  get processingTimeTimers(): number {
    return this.#heaps[PROCESSING].size;
  }

  /**
   * Fires every event-time timer at or before `time`, in timestamp order (timers they register
   * at or before `time` fire too), then calls `done`: at once when they fit in one slice, else
   * after later slices, from the task's PendingWork.
   */
  advanceWatermark(time: number, done: () => void): void {
    const pending = this.#pendingWatermarks;
    if (pending.length === 0) {
      this.#watermark = time;
      if (this.#fireDue(EVENT, time)) {
        done();
        return;
      }
      this.work.addStep(() => this.#fireInSlices());
    }
    pending.push({ time, done });
  }

  /**
   * Rebuilds the heaps from the restored timer state and schedules the processing-time
   * wake-up: call after the restore, before records flow. Due processing-time timers fire soon after.
   */
  async restore(): Promise<void> {
    const stored = (await this.backend.internalValues(`timers_${this.name}`)) as StoredTimer[];
    const keys = this.#keys;
    for (const [key, domain, namespace, timestamp] of stored) {
      keys.setCurrentKey(key);
      this.#add(domain, namespace, timestamp);
    }
    this.#keys.clearCurrentKey();
    const next = this.#heaps[PROCESSING].peek();
    if (next !== undefined) this.#scheduleWakeUp(next.timestamp);
  }

  /** Stops processing-time wake-ups (the operator closes). */
  close(): void {
    this.#closed = true;
    this.#cancelWakeUp?.();
    this.#cancelWakeUp = undefined;
    this.#wakeUpAt = Number.POSITIVE_INFINITY;
  }

  /** True when the timer is new (it was not registered already). */
  #register(domain: Domain, namespace: string, time: number): boolean {
    const keys = this.#keys;
    const last = this.#last;
    if (last !== undefined && last.live && last.timestamp === time && last.namespace === namespace && last.normalizedKey === keys.normalizedKey && this.#lastDomain === domain) {
      return false;
    }
    const registered = this.#registered[domain].get(time)?.get(namespace)?.get(keys.normalizedKey);
    if (registered !== undefined) {
      this.#last = registered;
      this.#lastDomain = domain;
      return false;
    }
    this.#write(domain, namespace, time, [keys.key, domain, namespace, time]);
    this.#last = this.#add(domain, namespace, time);
    this.#lastDomain = domain;
    return true;
  }

  /** Puts (`timer`) or removes (undefined) the current key's timer entry; the key context's namespace is left as it was. */
  #write(domain: Domain, namespace: string, time: number, timer: StoredTimer | undefined): void {
    const keys = this.#keys;
    const previous = keys.namespace;
    keys.namespace = this.#stateNamespace(domain, namespace, time);
    try {
      if (timer === undefined) this.#state.clear();
      else this.#state.update(timer);
    } finally {
      keys.namespace = previous;
    }
  }

  /**
   * The namespace of a timer's state entry: its domain, time and namespace. Built once per
   * (domain, time, namespace) in a row, so the timers of one window, registered or fired one
   * key after another, share one string (a Map lookup hashes it once).
   */
  #stateNamespace(domain: Domain, namespace: string, time: number): string {
    const of = this.#entryOf;
    if (of.time !== time || of.namespace !== namespace || of.domain !== domain) {
      this.#entryNamespace = `${domain}${decimalString(time)}\u0002${namespace}`;
      this.#entryOf = { domain, time, namespace };
    }
    return this.#entryNamespace;
  }

  /** Indexes and queues a timer of the current key. */
  #add(domain: Domain, namespace: string, timestamp: number): TimerEntry {
    const keys = this.#keys;
    const normalizedKey = keys.normalizedKey;
    const entry: TimerEntry = { timestamp, key: keys.key, namespace, normalizedKey, keyGroup: keys.groupIndex + keys.range.start, live: true, sequence: this.#sequence++ };
    const index = this.#registered[domain];
    let byNamespace = index.get(timestamp);
    if (byNamespace === undefined) index.set(timestamp, (byNamespace = new Map()));
    let byKey = byNamespace.get(namespace);
    if (byKey === undefined) byNamespace.set(namespace, (byKey = new Map()));
    byKey.set(normalizedKey, entry);
    this.#heaps[domain].push(entry);
    return entry;
  }

  /** Takes the timer out of the index; undefined when it was not there. */
  #unindex(domain: Domain, timestamp: number, namespace: string, normalizedKey: unknown): TimerEntry | undefined {
    const index = this.#registered[domain];
    const byNamespace = index.get(timestamp);
    const byKey = byNamespace?.get(namespace);
    const entry = byKey?.get(normalizedKey);
    if (entry === undefined) return undefined;
    byKey!.delete(normalizedKey);
    if (byKey!.size === 0) {
      byNamespace!.delete(namespace);
      if (byNamespace!.size === 0) index.delete(timestamp);
    }
    return entry;
  }

  #delete(domain: Domain, namespace: string, time: number): void {
    const entry = this.#unindex(domain, time, namespace, this.#keys.normalizedKey);
    if (entry === undefined) return;
    entry.live = false;
    this.#heaps[domain].deleted();
    this.#removeFromState(domain, namespace, time);
  }

  /** The current key's timer out of state (the key is current). */
  #removeFromState(domain: Domain, namespace: string, time: number): void {
    this.#write(domain, namespace, time, undefined);
  }

  /** The pending watermarks' timers, a slice per turn of the event loop, each watermark passed on once its timers fired. */
  async #fireInSlices(): Promise<void> {
    const pending = this.#pendingWatermarks;
    while (pending.length !== 0 && !this.#closed) {
      if (this.work.chain.blocked !== 0) await this.work.yieldWhileBlocked();
      else await yieldToEventLoop();
      if (this.#closed) return;
      const { time, done } = pending[0]!;
      this.#watermark = time;
      if (!this.#fireDue(EVENT, time)) continue;
      pending.shift();
      done();
    }
  }

  /**
   * Fires the due timers of one slice: true when none is left due. Timers a callback registers
   * at or before `time` fire in the same pass, as in Flink.
   */
  #fireDue(domain: Domain, time: number): boolean {
    const heap = this.#heaps[domain];
    const clock = this.processingTime;
    const sliceStart = clock.currentProcessingTime();
    let fired = 0;
    const chain = this.work.chain;
    for (let next = heap.peek(); next !== undefined && next.timestamp <= time; next = heap.peek()) {
      if (fired === TIMERS_PER_SLICE || (fired !== 0 && clock.currentProcessingTime() - sliceStart >= SLICE_MS)) return false;
      // A chained operator downstream is at capacity (an async operator): the rest fire once it takes input again.
      if (chain.blocked !== 0) return false;
      fired++;
      heap.poll();
      this.#unindex(domain, next.timestamp, next.namespace, next.normalizedKey);
      next.live = false;
      this.#keys.setCurrentKeyInGroup(next.key, next.keyGroup);
      this.#removeFromState(domain, next.namespace, next.timestamp);
      if (domain === EVENT) this.triggerable.onEventTime(next);
      else this.triggerable.onProcessingTime(next);
    }
    return true;
  }

  #scheduleWakeUp(time: number): void {
    this.#cancelWakeUp?.();
    this.#wakeUpAt = time;
    this.#cancelWakeUp = this.processingTime.registerTimer(time, () => this.#onWakeUp());
  }

  #onWakeUp(): void {
    this.#cancelWakeUp = undefined;
    this.#wakeUpAt = Number.POSITIVE_INFINITY;
    // What one slice left due fires at the next wake-up, scheduled for now: after the event loop's turn.
    const now = this.processingTime.currentProcessingTime();
    this.#fireDue(PROCESSING, now);
    const next = this.#heaps[PROCESSING].peek();
    if (next === undefined || next.timestamp >= this.#wakeUpAt) return;
    if (next.timestamp <= now && this.work.chain.blocked !== 0) this.#wakeUpWhenUnblocked(next.timestamp);
    else this.#scheduleWakeUp(next.timestamp);
  }

  /** Due timers left because the chain is back-pressured: the next wake-up is once it is not, not a spin meanwhile. */
  #wakeUpWhenUnblocked(time: number): void {
    let canceled = false;
    this.#wakeUpAt = time;
    this.#cancelWakeUp = () => (canceled = true);
    void this.work.chain.whenUnblocked().then(() => {
      if (canceled || this.#closed) return;
      this.#wakeUpAt = Number.POSITIVE_INFINITY;
      this.#scheduleWakeUp(time);
    });
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

type TimerIndex = Map<number, Map<string, Map<unknown, TimerEntry>>>;
