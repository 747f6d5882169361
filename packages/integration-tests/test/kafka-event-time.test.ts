import { describe, expect, it } from 'vitest';
import { javaAvailable, produceValues, readCommittedWithJavaClient, readTopic } from '@weir/kafka-broker';
import { diffLines } from '@weir/examples';
import { completedCount, jobIdFrom, kafkaEvidence, listCheckpoints, waitForCheckpoints, waitForStatus, writeJobFile, type ProcessCluster } from '../src/index.ts';
import { kafkaSuite } from './kafka-suite.ts';
import { EPOCH, expectedWindowTotals, KAFKA_WINDOWED_TOTALS, kafkaSplitEventRecord } from './split-watermark-jobs.ts';

import { setTimeout as sleep } from 'node:timers/promises';

const BACKLOG = 16_000;
const TOTAL = 40_000;

/**
 * Issue 23's trial as a process test: a KafkaSource over 4 partitions (6 after partitions are
 * added mid-run), event time per partition with bounded out-of-orderness, 1 s tumbling windows
 * and a keyed running total, EXACTLY_ONCE into Kafka, on 2 TaskManagers; two TaskManagers and
 * the broker SIGKILLed. A backlog is in the topic before the job starts, so a reader fetches a
 * whole run of one partition before another's: a reader whose watermark followed its first
 * partition alone dropped the other's events as late. Every window line must be committed
 * exactly once, and no event reach the late side output, read by Kafka's Java client with
 * read_committed.
 */
describe.skipIf(!javaAvailable())('event-time windows over Kafka with several partitions per reader', () => {
  const suite = kafkaSuite();
  let run = 0;

  /** Events from..to-1 into `topic` over `partitions` partitions, in batches at about `perSecond` (all at once without it). */
  async function produceEvents(topic: string, from: number, to: number, partitions: number, perSecond?: number): Promise<void> {
    const batch = perSecond === undefined ? to - from : Math.max(1, Math.floor(perSecond / 10));
    for (let i = from; i < to; i += batch) {
      const values = Array.from({ length: Math.min(batch, to - i) }, (_, j) => kafkaSplitEventRecord(i + j, partitions));
      await produceValues(suite.broker.bootstrapServers, topic, values);
      if (perSecond !== undefined) await sleep(100);
    }
  }

  /** Resolves once a TaskManager of `c` logged that it reads `splitId`. */
  async function readingSplit(c: ProcessCluster, splitId: string): Promise<void> {
    const reads = (line: string) => line.includes('reading partitions') && line.includes(`"${splitId}@`);
    const deadline = Date.now() + 30_000;
    while (!c.taskManagers.some((tm) => tm.output.split('\n').some(reads))) {
      if (Date.now() > deadline) throw new Error(`no TaskManager reads ${splitId} within 30 s:\n${c.logs()}`);
      await sleep(100);
    }
  }

  it.each([
    ['p=2, heap state', 2, 'heap'],
    ['p=2, LevelDB with incremental checkpoints', 2, 'level-incremental'],
    ['p=1: all partitions on one reader', 1, 'heap'],
  ])('commits every window once and drops no event as late: %s', async (_name, parallelism, backend) => {
    run++;
    const input = `et-in-${run}`;
    const output = `et-out-${run}`;
    const c = await suite.kafka.cluster();
    await suite.broker.createTopic(input, 4);
    await suite.broker.createTopic(output, 2);
    const steps: string[] = [];
    const t0 = Date.now();
    const step = (what: string) => steps.push(`${Date.now() - t0} ms: ${what}`);

    await produceEvents(input, 0, BACKLOG, 4);
    step(`${BACKLOG} events in the topic before the job starts`);
    const args = [suite.broker.bootstrapServers, input, output, `et-${run}`, backend, `${c.dir}/checkpoints`];
    const submitted = await c.weir(['run', '--detached', '-p', String(parallelism), writeJobFile(KAFKA_WINDOWED_TOTALS), '--', ...args]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const jobId = jobIdFrom(submitted.stdout);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    step('running');

    const phase2 = produceEvents(input, BACKLOG, 24_000, 4, 2_000);
    await sleep(1_500 + Math.random() * 1_500);
    step(`SIGKILL ${(await c.killTaskManager(c.liveTaskManagers[Math.floor(Math.random() * c.liveTaskManagers.length)])).name}`);
    await c.startTaskManager();
    await phase2;

    // New partitions get events only once the job reads them, so the events are not late by discovery's delay.
    await suite.broker.addPartitions(input, 6);
    await Promise.all([readingSplit(c, `${input}-4`), readingSplit(c, `${input}-5`)]);
    step('partitions 4 and 5 added and assigned');
    const phase3 = produceEvents(input, 24_000, 32_000, 6, 2_000);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    const completed = completedCount((await listCheckpoints(c.client, jobId)).checkpoints);
    await waitForCheckpoints(c.client, jobId, (checkpoints) => completedCount(checkpoints) > completed, 30_000);
    step(`SIGKILL ${(await c.killTaskManager(c.liveTaskManagers[0])).name} right after a checkpoint completed`);
    await c.startTaskManager();
    await phase3;

    await suite.broker.kill();
    step('SIGKILL the broker');
    await sleep(2_000);
    await suite.broker.restart();
    step('broker restarted');
    await produceEvents(input, 32_000, TOTAL, 6, 4_000);
    // One event per partition, far later than the last: the watermark passes every window of the input.
    const end = EPOCH + TOTAL * 5;
    await produceValues(suite.broker.bootstrapServers, input, Array.from({ length: 6 }, (_, partition) => ({ value: `end -1 ${end}`, partition })));
    step('all input produced');

    const expected = expectedWindowTotals(TOTAL);
    const deadline = Date.now() + 120_000;
    while ((await readTopic(suite.broker.bootstrapServers, output)).length < expected.length && Date.now() < deadline) await sleep(1_000);
    const lines = await readCommittedWithJavaClient(suite.broker.bootstrapServers, output);
    step(`${lines.length} lines committed`);
    const evidence = kafkaEvidence(c, steps);
    await c.weir(['cancel', jobId]);
    const { missing, extra } = diffLines(lines.sort(), expected);
    expect({ missing: missing.slice(0, 10), extra: extra.slice(0, 10), counts: [missing.length, extra.length] }, evidence).toEqual({
      missing: [],
      extra: [],
      counts: [0, 0],
    });
  });
});
