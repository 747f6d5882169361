/**
 * Durations in milliseconds, with Flink's names: `TumblingEventTimeWindows.of(Time.minutes(1))`
 * is `TumblingEventTimeWindows.of(60_000)`.
 */
export const Time = {
  milliseconds: (ms: number): number => ms,
  seconds: (s: number): number => s * 1000,
  minutes: (m: number): number => m * 60_000,
  hours: (h: number): number => h * 3_600_000,
  days: (d: number): number => d * 86_400_000,
} as const;
