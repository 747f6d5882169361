import { TimeDomain, type OnTimerContext, type OutputTag, type TimerService } from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { KeyContext } from '../state/key-context.ts';
import type { ProcessingTimeService } from '../time/processing-time-service.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';
import type { InternalTimerService } from '../timers/internal-timer-service.ts';
import type { Output } from './output.ts';

/** The namespace of a process function's own timers (Flink's VoidNamespace). */
export const NO_NAMESPACE = '';

function requireTime(time: number, call: string): number {
  if (typeof time !== 'number' || Number.isNaN(time)) {
    throw new WeirError(RuntimeErrorCode.INVALID_TIMER, `${call} takes a timestamp in milliseconds, got ${String(time)}`);
  }
  return time;
}

/**
 * `ctx.timerService()` of a process function: the operator's timers when it runs keyed;
 * without keys, time can be read but no timer set (as in Flink).
 */
export class UserTimerService implements TimerService {
  /** The operator's last input watermark, when it has no timer service to keep it. */
  watermark = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly processingTime: ProcessingTimeService,
    private readonly timers: InternalTimerService | undefined,
    private readonly operatorLabel: string,
  ) {}

  currentProcessingTime(): number {
    return this.processingTime.currentProcessingTime();
  }

  currentWatermark(): number {
    return this.timers?.currentWatermark() ?? this.watermark;
  }

  registerProcessingTimeTimer(time: number): void {
    this.#keyed('registerProcessingTimeTimer').registerProcessingTimeTimer(NO_NAMESPACE, requireTime(time, 'registerProcessingTimeTimer()'));
  }

  registerEventTimeTimer(time: number): void {
    this.#keyed('registerEventTimeTimer').registerEventTimeTimer(NO_NAMESPACE, requireTime(time, 'registerEventTimeTimer()'));
  }

  deleteProcessingTimeTimer(time: number): void {
    this.#keyed('deleteProcessingTimeTimer').deleteProcessingTimeTimer(NO_NAMESPACE, time);
  }

  deleteEventTimeTimer(time: number): void {
    this.#keyed('deleteEventTimeTimer').deleteEventTimeTimer(NO_NAMESPACE, time);
  }

  #keyed(call: string): InternalTimerService {
    if (this.timers !== undefined) return this.timers;
    throw new WeirError(
      RuntimeErrorCode.TIMERS_NOT_KEYED,
      `${this.operatorLabel} called timerService().${call}(), but timers need a keyed stream: call keyBy(...) before process(...)`,
    );
  }
}

/**
 * The context a process function gets in processElement and onTimer (one object per
 * operator, reused): the record's timestamp, the timer service, side outputs, the current key,
 * and in onTimer the timer's time domain.
 */
export class FunctionContext implements OnTimerContext<unknown> {
  /** Set while onTimer runs. */
  #timer: { domain: TimeDomain; timestamp: number } | undefined;

  constructor(
    readonly subtaskIndex: number,
    private readonly slot: RecordTimestamp,
    private readonly out: Output,
    private readonly timers: UserTimerService,
    private readonly keys: KeyContext | undefined,
  ) {}

  timestamp(): number | undefined {
    return this.#timer?.timestamp ?? this.slot.value;
  }

  timerService(): TimerService {
    return this.timers;
  }

  output<X>(tag: OutputTag<X>, value: X): void {
    this.out.collectSide(tag.id, value);
  }

  getCurrentKey(): unknown {
    return this.keys?.key;
  }

  timeDomain(): TimeDomain {
    if (this.#timer === undefined) throw new Error('timeDomain() is only available in onTimer');
    return this.#timer.domain;
  }

  /**
   * Runs `onTimer` with the timer set: the output gets the timer's timestamp for event time
   * and none for processing time (as Flink's TimestampedCollector).
   */
  firing(domain: TimeDomain, timestamp: number, run: () => void): void {
    this.#timer = { domain, timestamp };
    const previous = this.slot.value;
    this.slot.value = domain === TimeDomain.EVENT_TIME ? timestamp : undefined;
    try {
      run();
    } finally {
      this.#timer = undefined;
      this.slot.value = previous;
    }
  }
}
