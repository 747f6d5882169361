import { afterEach, describe, expect, it } from 'vitest';
import { waitForStopSignal } from './signals.ts';

const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };

afterEach(() => {
  for (const name of ['SIGTERM', 'SIGINT'] as const) {
    for (const listener of process.listeners(name)) if (!before[name].includes(listener)) process.removeListener(name, listener);
  }
});

describe('waitForStopSignal', () => {
  it('resolves with the first signal, forces on the same signal again, and ignores the other', async () => {
    const forced: string[] = [];
    const stopped = waitForStopSignal((signal) => forced.push(signal));
    process.emit('SIGINT', 'SIGINT');
    expect(await stopped).toBe('SIGINT');
    process.emit('SIGTERM', 'SIGTERM');
    expect(forced).toEqual([]);
    process.emit('SIGINT', 'SIGINT');
    expect(forced).toEqual(['SIGINT']);
  });
});
