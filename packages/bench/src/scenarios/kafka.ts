import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleJobs, kafkaInputRecord } from '@weir/examples';
import { jobIdFrom, ProcessCluster, waitForStatus } from '@weir/integration-tests';
import { committedEndOffsets, KafkaBroker, produceValues, readTopic } from '@weir/kafka-broker';
import type { Scenario } from '../scenario.ts';

const RECORDS = 100_000;

/**
 * Resolves once the topic holds `count` records a read_committed consumer sees. Reads the
 * topic only once its committed end offsets could hold them: reading 100,000 records every
 * poll would take the CPU the job under measurement needs.
 */
async function untilCommitted(broker: KafkaBroker, topic: string, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const possible = (await committedEndOffsets(broker.bootstrapServers, topic)) >= BigInt(count);
    if (possible && (await readTopic(broker.bootstrapServers, topic)).length >= count) return;
    if (Date.now() > deadline) throw new Error(`${topic} did not reach ${count} committed records within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Kafka → keyed running sum → Kafka with EXACTLY_ONCE and 1 s checkpoints on a process
 * cluster (2 TaskManagers, parallelism 2), against the broker's own ceiling here: a consumer
 * and a producer that just copy the topic, in the same run on the same broker. Both move the
 * same 100,000 records already in the input topic (4 partitions).
 */
export const kafka: Scenario = {
  name: 'kafka',
  description: `${RECORDS} records Kafka → keyed running sum → Kafka (EXACTLY_ONCE, 1 s checkpoints, p=2) vs a plain copy of the topic`,
  async run() {
    const broker = await KafkaBroker.start();
    try {
      await broker.createTopic('bench-in', 4);
      await broker.createTopic('bench-copy', 2);
      await broker.createTopic('bench-out', 2);
      for (let i = 0; i < RECORDS; i += 10_000) {
        await produceValues(broker.bootstrapServers, 'bench-in', Array.from({ length: Math.min(10_000, RECORDS - i) }, (_, j) => kafkaInputRecord(i + j)));
      }

      const copyStarted = performance.now();
      const records = await readTopic(broker.bootstrapServers, 'bench-in');
      await produceValues(broker.bootstrapServers, 'bench-copy', records.map((r) => ({ value: r.value ?? '' })));
      const copyMs = performance.now() - copyStarted;

      const dir = mkdtempSync(join(tmpdir(), 'weir-bench-kafka-'));
      const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
      let weirMs: number;
      try {
        const run = await cluster.weir(['run', '--detached', '-p', '2', exampleJobs.kafkaRunningSums, '--', broker.bootstrapServers, 'bench-in', 'bench-out', 'bench', 'EXACTLY_ONCE', '1000', '0']);
        if (run.code !== 0) throw new Error(`weir run failed: ${run.stderr}`);
        const jobId = jobIdFrom(run.stdout);
        await waitForStatus(cluster.client, jobId, ['RUNNING']);
        const started = performance.now();
        await untilCommitted(broker, 'bench-out', RECORDS, 300_000);
        weirMs = performance.now() - started;
        await cluster.weir(['cancel', jobId]);
      } finally {
        await cluster.stop();
        rmSync(dir, { recursive: true, force: true });
      }
      const weirRate = RECORDS / (weirMs / 1000);
      const copyRate = RECORDS / (copyMs / 1000);
      return {
        figures: { weirRecordsPerSecond: weirRate, copyRecordsPerSecond: copyRate, ratio: weirRate / copyRate },
        rows: [
          ['Weir EXACTLY_ONCE keyed sums', weirRate.toFixed(0), 'records/s'],
          ['plain consumer + producer copy', copyRate.toFixed(0), 'records/s'],
          ['Weir / copy', (weirRate / copyRate).toFixed(2), '×'],
        ],
      };
    } finally {
      await broker.destroy();
    }
  },
};
