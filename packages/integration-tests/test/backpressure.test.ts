import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobIdFrom, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { SLOW_SINK } from './jobs.ts';

function readCount(path: string): number {
  return existsSync(path) ? Number(readFileSync(path, 'utf8')) : 0;
}

describe('backpressure', () => {
  let cluster: ProcessCluster;

  beforeAll(async () => {
    cluster = await ProcessCluster.start({ taskManagers: 2, slots: 1 });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('keeps a fast source within a bounded distance of a slow sink', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-bp-'));
    const run = await cluster.weir(['run', '--detached', writeJobFile(SLOW_SINK), '--', dir]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);

    // Unthrottled, the source makes hundreds of thousands of records a second; the sinks take
    // about two thousand. Flow control must hold the source to what the channels can buffer:
    // about (credit + queue) buffers of 32 KiB per channel, some 300 records of 105 bytes each.
    const samples: Array<{ generated: number; consumed: number }> = [];
    for (let i = 0; i < 8; i++) {
      await new Promise((r) => setTimeout(r, 1_000));
      samples.push({
        generated: readCount(join(dir, 'generated')),
        consumed: readCount(join(dir, 'consumed-0')) + readCount(join(dir, 'consumed-1')),
      });
    }
    await cluster.weir(['cancel', jobId]);
    await waitForStatus(cluster.client, jobId, ['CANCELED']);

    const last = samples.at(-1)!;
    expect(last.consumed, cluster.logs()).toBeGreaterThan(1_000);
    for (const { generated, consumed } of samples) {
      expect(generated - consumed, JSON.stringify(samples)).toBeLessThan(50_000);
    }
  });
});
