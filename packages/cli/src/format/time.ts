/** A wall-clock time as `2025-01-31 14:05:09 UTC`, or `-` for 0 (not set). */
export function formatTime(epochMs: number): string {
  if (epochMs === 0) return '-';
  return `${new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
