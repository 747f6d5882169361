import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDuration, formatPercent } from './format.ts';

describe('dashboard formats', () => {
  it('writes bytes, durations, counts and shares short, with units', () => {
    expect([formatBytes(512), formatBytes(1536), formatBytes(50 * 1024 * 1024)]).toEqual(['512 B', '1.5 KiB', '50 MiB']);
    expect([formatDuration(250), formatDuration(1_500), formatDuration(75_000), formatDuration(7_200_000)]).toEqual(['250 ms', '1.5 s', '1m 15s', '2h 0m']);
    expect([formatCount(999), formatCount(1_234), formatCount(2_500_000)]).toEqual(['999', '1.2k', '2.5M']);
    expect(formatPercent(0.456)).toBe('46%');
  });
});
