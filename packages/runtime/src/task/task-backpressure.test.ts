import { describe, expect, it } from 'vitest';
import { SUBPARTITION_QUEUE_LIMIT } from '../output/create-record-writer.ts';
import { CollectingSink, runJob, type RunningJob } from '../testing/harness.ts';
import { INITIAL_CREDIT } from './input-wiring.ts';

describe('backpressure', () => {
  it('bounds the buffers queued and in flight per channel while a slow sink gets every record once', async () => {
    // ~1 KiB records: about 32 to a buffer, so 4000 records make ~125 buffers.
    const records = Array.from({ length: 4000 }, (_, i) => `${i}:${'x'.repeat(1000)}`);
    let job: RunningJob | undefined;
    let maxBuffers = 0;
    const sample = (): void => {
      if (job === undefined) return;
      const [producer, consumer] = job.jobGraph.vertices.map((v) => job!.task(v.name));
      const buffers = producer!.networkStats.queuedOutputBuffers + consumer!.networkStats.unacknowledgedInputBuffers;
      maxBuffers = Math.max(maxBuffers, buffers);
    };
    const sink = new CollectingSink<string>(() => {
      sample();
      return new Promise((resolve) => setImmediate(resolve));
    });
    job = await runJob((env) => {
      env.setBufferTimeout(-1);
      env.fromCollection(records).rebalance().sinkTo(sink);
    });
    await job.whenAllTerminal();
    expect(sink.values()).toEqual(records);
    // Credit granted, plus the queue up to its limit, plus the one buffer the end-of-input flush may add.
    expect(maxBuffers).toBeLessThanOrEqual(INITIAL_CREDIT + SUBPARTITION_QUEUE_LIMIT + 1);
    // The producer really was held back: its queue filled up.
    expect(maxBuffers).toBeGreaterThanOrEqual(INITIAL_CREDIT + SUBPARTITION_QUEUE_LIMIT);
  });

  it('stops a source while its consumer does not take buffers, and resumes when it does', async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const records = Array.from({ length: 3000 }, (_, i) => `${i}:${'y'.repeat(1000)}`);
    const sink = new CollectingSink<string>((record) => (record.startsWith('0:') ? gate : undefined));
    const job = await runJob((env) => {
      env.setBufferTimeout(-1);
      env.fromCollection(records).rebalance().sinkTo(sink);
    });
    const [producer, consumer] = job.jobGraph.vertices.map((v) => job.task(v.name));
    for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(sink.records).toHaveLength(1);
    expect(producer!.networkStats.queuedOutputBuffers).toBe(SUBPARTITION_QUEUE_LIMIT);
    expect(consumer!.networkStats.unacknowledgedInputBuffers).toBe(INITIAL_CREDIT);
    release!();
    await job.whenAllTerminal();
    expect(sink.values()).toEqual(records);
  });
});
