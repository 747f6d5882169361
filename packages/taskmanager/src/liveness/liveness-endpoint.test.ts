import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { silentLogger } from '@weir/common/testing';
import { BEAT_INTERVAL_MS, startLivenessEndpoint, type LivenessEndpoint } from './liveness-endpoint.ts';

describe('the liveness endpoint', () => {
  let endpoint: LivenessEndpoint | undefined;
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
  });

  it('says how long ago the event loop last ran, and nothing else', async () => {
    endpoint = await startLivenessEndpoint('127.0.0.1', 0, silentLogger());
    const response = await fetch(`http://127.0.0.1:${endpoint.port}/liveness`);
    const answer = (await response.json()) as { eventLoopLastRanMsAgo: number };
    expect(answer.eventLoopLastRanMsAgo).toBeGreaterThanOrEqual(0);
    // A loop that runs is at most one beat behind, give or take a loaded machine.
    expect(answer.eventLoopLastRanMsAgo).toBeLessThan(BEAT_INTERVAL_MS * 10);
    expect((await fetch(`http://127.0.0.1:${endpoint.port}/other`)).status).toBe(404);
  });

  it('rejects with BIND_FAILED when its port is in use', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const error = await startLivenessEndpoint('127.0.0.1', port, silentLogger()).catch((err: unknown) => err);
      expect(isWeirError(error, 'BIND_FAILED')).toBe(true);
      expect((error as Error).message).toContain(`cannot listen on 127.0.0.1:${port}: port ${port} is already in use`);
    } finally {
      taken.close();
    }
  });
});
