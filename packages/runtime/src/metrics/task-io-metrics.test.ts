import { describe, expect, it } from 'vitest';
import { SUBPARTITION_QUEUE_LIMIT } from '../output/create-record-writer.ts';
import { TaskIOMetrics } from './task-io-metrics.ts';
import { CollectingSink, runJob } from '../testing/harness.ts';

describe('task IO metrics', () => {
  it('count every record and byte a task sends and receives, per buffer', async () => {
    const records = Array.from({ length: 5_000 }, (_, i) => `record ${i}`);
    const sink = new CollectingSink<string>();
    const job = await runJob(
      (env) => {
        env.fromCollection(records).setParallelism(1).rebalance().sinkTo(sink).setParallelism(2);
      },
      { taskManagers: 2 },
    );
    await job.whenAllTerminal();
    const [source, consumers] = job.jobGraph.vertices;
    const sent = job.task(source!.name).sampleMetrics();
    const received = [0, 1].map((i) => job.task(consumers!.name, i).sampleMetrics());
    expect(sent.numRecordsOut).toBe(5_000);
    expect(sent.numRecordsIn).toBe(0);
    expect(received.map((r) => r.numRecordsIn).reduce((a, b) => a + b)).toBe(5_000);
    expect(received.map((r) => r.numBytesIn).reduce((a, b) => a + b)).toBe(sent.numBytesOut);
    expect(sent.numBytesOut).toBeGreaterThan(5_000 * 'record 0'.length);
    // A sink writes to no consumer.
    expect(received.map((r) => r.numRecordsOut)).toEqual([0, 0]);
  });

  it('count the time a source waits for a consumer that takes nothing as back-pressured, the wait still going on included', async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const records = Array.from({ length: 3_000 }, (_, i) => `${i}:${'y'.repeat(1000)}`);
    const sink = new CollectingSink<string>((record) => (record.startsWith('0:') ? gate : undefined));
    const job = await runJob((env) => {
      env.setBufferTimeout(-1);
      env.fromCollection(records).rebalance().sinkTo(sink);
    });
    const [producer, consumer] = job.jobGraph.vertices.map((v) => job.task(v.name));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stuck = producer!.sampleMetrics();
    expect(stuck.backPressuredTimeMs).toBeGreaterThanOrEqual(100);
    expect(stuck.outputQueueLength).toBe(SUBPARTITION_QUEUE_LIMIT);
    expect(stuck.outPoolUsage).toBe(1);
    expect(consumer!.sampleMetrics().inPoolUsage).toBe(1);
    release!();
    await job.whenAllTerminal();
    expect(producer!.sampleMetrics().numRecordsOut).toBe(3_000);
  });

  it('give the queues as a share of what they may hold: 0 without queues, at most 1', () => {
    const metrics = new TaskIOMetrics();
    metrics.startWait('idle', 100);
    const sample = metrics.sample(250, 200, 42, { inputBuffers: 3, inputCapacity: 12, outputBuffers: 9, outputCapacity: 4 }, []);
    expect(sample).toMatchObject({ idleTimeMs: 150, runningTimeMs: 200, currentInputWatermark: 42, inputQueueLength: 3, inPoolUsage: 0.25, outputQueueLength: 9, outPoolUsage: 1 });
    expect(metrics.sample(250, 0, 0, { inputBuffers: 0, inputCapacity: 0, outputBuffers: 0, outputCapacity: 0 }, [])).toMatchObject({ inPoolUsage: 0, outPoolUsage: 0 });
  });
});
