/**
 * Durations in milliseconds, with Flink's names: `TumblingEventTimeWindows.of(Time.minutes(1))`
 * is `TumblingEventTimeWindows.of(60_000)`.
 */
export const Time = {
  /** `ms` milliseconds. */
  milliseconds: (ms: number): number => ms,
  /** `s` seconds in milliseconds. */
  seconds: (s: number): number => s * 1000,
  /** `m` minutes in milliseconds. */
  minutes: (m: number): number => m * 60_000,
  /** `h` hours in milliseconds. */
  hours: (h: number): number => h * 3_600_000,
  /** `d` days in milliseconds. */
  days: (d: number): number => d * 86_400_000,
} as const;
