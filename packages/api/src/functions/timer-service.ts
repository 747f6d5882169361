/** Which clock a timer belongs to (Flink's TimeDomain). */
export const TimeDomain = {
  /** Fires when the watermark passes the timer's timestamp. */
  EVENT_TIME: 'EVENT_TIME',
  /** Fires when the task's processing-time clock reaches the timer's timestamp. */
  PROCESSING_TIME: 'PROCESSING_TIME',
} as const;
export type TimeDomain = (typeof TimeDomain)[keyof typeof TimeDomain];

/**
 * Time and timers for the current key (Flink's TimerService), from `ctx.timerService()`.
 * Timers are keyed state: one timer per (key, timestamp) and time domain however often it is
 * registered; they are part of every checkpoint and savepoint, move with their key group on
 * rescale, and fire in timestamp order, on the task's loop, never while a record is being
 * processed. Setting timers needs a keyed stream; reading time works everywhere.
 */
export interface TimerService {
  /** The task's processing time, ms since the epoch. */
  currentProcessingTime(): number;
  /** The operator's current event time: -Infinity before the first watermark. */
  currentWatermark(): number;
  /** Calls `onTimer` once the task's processing time reaches `time` (at once if it already did). */
  registerProcessingTimeTimer(time: number): void;
  /** Calls `onTimer` once the watermark reaches `time`. */
  registerEventTimeTimer(time: number): void;
  /** Deletes the current key's processing-time timer at `time`, if there is one. */
  deleteProcessingTimeTimer(time: number): void;
  /** Deletes the current key's event-time timer at `time`, if there is one. */
  deleteEventTimeTimer(time: number): void;
}
