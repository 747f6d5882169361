const UNIT_MS = { ms: 1, s: 1_000, min: 60_000, h: 3_600_000 } as const;

/** The units a duration string may use, in the order messages list them. */
export const DURATION_UNITS = Object.keys(UNIT_MS) as readonly (keyof typeof UNIT_MS)[];

/**
 * Milliseconds for `500ms`, `10s`, `2min`, `1h`, `1.5s` or a plain number of milliseconds
 * (`250`), or undefined when the text is none of these or not a whole, non-negative number
 * of milliseconds.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|min|h)?$/.exec(text.trim());
  if (match === null) return undefined;
  const ms = Number(match[1]) * UNIT_MS[(match[2] ?? 'ms') as keyof typeof UNIT_MS];
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** `ms` the way a config value would write it, in the largest whole unit: `30s`, `1500ms`, `2min`, `1h`. */
export function durationText(ms: number): string {
  const unit = (['h', 'min', 's'] as const).find((u) => ms > 0 && ms % UNIT_MS[u] === 0) ?? 'ms';
  return `${ms / UNIT_MS[unit]}${unit}`;
}
