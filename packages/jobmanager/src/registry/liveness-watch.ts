import { durationText, type Clock, type Logger, type TimerHandle } from '@weir/common';
import type { LivenessProbe } from './liveness-probe.ts';

export interface LivenessSettings {
  readonly clock: Clock;
  /** heartbeat.probe-interval: time between probes that were answered. */
  readonly probeIntervalMs: number;
  /** heartbeat.probe-timeout: how long one probe waits for its answer. */
  readonly probeTimeoutMs: number;
  /** heartbeat.timeout: how long a TaskManager's event loop may stay blocked. */
  readonly timeoutMs: number;
}

export interface LivenessEvents {
  /** MISSES_TO_LOSE probes in a row went unanswered; `detail` says which and why. */
  unanswered(detail: string): void;
  /** The TaskManager answered that its event loop has not run for heartbeat.timeout or longer. */
  blocked(blockedMs: number): void;
}

/**
 * Probes in a row that go unanswered before the TaskManager is lost. One alone may be the
 * JobManager's own stall: after it, the deadline timer runs before the answer waiting in the
 * socket is read.
 */
export const MISSES_TO_LOSE = 2;

/** An event loop that has not run for this long is logged as blocked, once per stretch. */
export const BLOCKED_AFTER_MS = 2_000;

/** One decimal of seconds: how long a loop was blocked, for messages. */
export function secondsText(ms: number): string {
  return `${(ms / 1_000).toFixed(1)} s`;
}

/**
 * Watches one TaskManager through its liveness endpoint, which a thread of its own answers
 * (Flink runs heartbeats off the task threads for the same reason). An answer proves the
 * process runs and says when its event loop last ran: a busy loop (a long synchronous user
 * function, a big restore, a long GC) is waited for up to heartbeat.timeout, while a stopped
 * process or one out of reach answers nothing and is lost after MISSES_TO_LOSE probes, each
 * given heartbeat.probe-timeout. One probe in flight at a time.
 */
export class LivenessWatch {
  /** The next probe's start, or the deadline of the one in flight. */
  #timer: TimerHandle | undefined;
  #inFlight: { readonly id: number; readonly abort: AbortController } | undefined;
  #nextId = 1;
  #misses = 0;
  /** Why the last probe out of turn was sent (another TaskManager could not reach this one), for the loss message. */
  #reportedBy: string | undefined;
  /** The latest answer and when it came. */
  #latest: { readonly atMs: number; readonly lastRanMsAgo: number } | undefined;
  /** The longest block seen in the current stretch of answers that said blocked, 0 outside one. */
  #blockedStretchMs = 0;
  #stopped = false;

  constructor(
    private readonly taskManagerId: string,
    private readonly address: string,
    private readonly settings: LivenessSettings,
    private readonly probe: LivenessProbe,
    private readonly events: LivenessEvents,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.#send();
  }

  /**
   * Probes now rather than at the next interval; `why` ends the loss message if the probes go
   * unanswered. False when one is in flight already (its answer decides).
   */
  probeNow(why: string): boolean {
    if (this.#stopped) return false;
    this.#reportedBy = why;
    if (this.#inFlight !== undefined) return false;
    this.#send();
    return true;
  }

  /**
   * How long the event loop has been blocked, when a recent answer said it was: what explains
   * heartbeats that stopped while the process still answers. Undefined otherwise.
   */
  blockedForMs(): number | undefined {
    const latest = this.#latest;
    if (latest === undefined || latest.lastRanMsAgo < BLOCKED_AFTER_MS) return undefined;
    const { clock, probeIntervalMs, probeTimeoutMs } = this.settings;
    const age = clock.now() - latest.atMs;
    // An older answer says nothing of now: the process may have stopped since.
    return age <= MISSES_TO_LOSE * (probeIntervalMs + probeTimeoutMs) ? latest.lastRanMsAgo + age : undefined;
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.settings.clock.clearTimeout(this.#timer);
    this.#inFlight?.abort.abort();
    this.#inFlight = undefined;
  }

  #send(): void {
    const { clock, probeTimeoutMs } = this.settings;
    if (this.#timer !== undefined) clock.clearTimeout(this.#timer);
    const id = this.#nextId++;
    const abort = new AbortController();
    this.#inFlight = { id, abort };
    this.#timer = clock.setTimeout(() => this.#missed(id, `no answer within ${durationText(probeTimeoutMs)}`), probeTimeoutMs);
    this.probe(this.address, abort.signal).then(
      (report) => this.#answered(id, report.eventLoopLastRanMsAgo),
      (error: unknown) => this.#missed(id, error instanceof Error ? error.message : String(error)),
    );
  }

  /** Ends the probe `id` if it is the one in flight; false when it is not (late, or stopped). */
  #settle(id: number): boolean {
    if (this.#stopped || this.#inFlight?.id !== id) return false;
    if (this.#timer !== undefined) this.settings.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#inFlight = undefined;
    return true;
  }

  #answered(id: number, lastRanMsAgo: number): void {
    if (!this.#settle(id)) return;
    const { clock, probeIntervalMs, timeoutMs } = this.settings;
    this.#misses = 0;
    this.#reportedBy = undefined;
    this.#latest = { atMs: clock.now(), lastRanMsAgo };
    if (lastRanMsAgo >= timeoutMs) {
      this.events.blocked(lastRanMsAgo);
      return;
    }
    this.#logStretch(lastRanMsAgo);
    this.#timer = clock.setTimeout(() => this.#send(), probeIntervalMs);
  }

  #missed(id: number, cause: string): void {
    const inFlight = this.#inFlight;
    if (!this.#settle(id)) return;
    inFlight?.abort.abort();
    this.#misses += 1;
    if (this.#misses < MISSES_TO_LOSE) {
      // At once: a stopped process is lost within MISSES_TO_LOSE probe timeouts.
      this.#send();
      return;
    }
    const each = durationText(this.settings.probeTimeoutMs);
    const after = this.#reportedBy === undefined ? '' : ` after ${this.#reportedBy}`;
    this.events.unanswered(`(${MISSES_TO_LOSE} in a row, each given ${each}; the last: ${cause})${after}`);
  }

  #logStretch(lastRanMsAgo: number): void {
    const context = { taskManagerId: this.taskManagerId, eventLoopLastRanMsAgo: lastRanMsAgo };
    if (lastRanMsAgo >= BLOCKED_AFTER_MS) {
      if (this.#blockedStretchMs === 0) {
        this.logger.warn(
          context,
          `event loop of TaskManager ${this.taskManagerId} blocked for ${secondsText(lastRanMsAgo)}; it answers liveness probes, so it is lost only if it stays blocked for heartbeat.timeout (${durationText(this.settings.timeoutMs)})`,
        );
      }
      this.#blockedStretchMs = Math.max(this.#blockedStretchMs, lastRanMsAgo);
    } else if (this.#blockedStretchMs > 0) {
      this.logger.info(context, `event loop of TaskManager ${this.taskManagerId} runs again, after a block of at least ${secondsText(this.#blockedStretchMs)}`);
      this.#blockedStretchMs = 0;
    }
  }
}
