import { describe, expect, it } from 'vitest';
import { javaAvailable } from '@weir/kafka-broker';
import { expectedKafkaSums } from '@weir/examples';
import { completedCount, kafkaEvidence, listCheckpoints, waitForStatus, type ProcessCluster } from '../src/index.ts';
import { kafkaSuite } from './kafka-suite.ts';

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Issue 16's main acceptance on a process cluster and a real Kafka broker: the Kafka
 * running-sums example (KafkaSource -> keyBy -> running sums in ValueState -> KafkaSink
 * EXACTLY_ONCE, p=2 on 2 TaskManagers), read back by a read_committed consumer of our own
 * (`readTopic`), which must see exactly the expected lines (`expectedKafkaSums`): none
 * missing, none twice, through TaskManager SIGKILLs, partitions added and a broker SIGKILL.
 */
describe.skipIf(!javaAvailable())('Kafka exactly-once on a process cluster', () => {
  const suite = kafkaSuite();

  async function nextCompletedCheckpoint(c: ProcessCluster, jobId: string): Promise<void> {
    const before = completedCount((await listCheckpoints(c.client, jobId)).checkpoints);
    while (completedCount((await listCheckpoints(c.client, jobId)).checkpoints) <= before) await sleep(50);
  }

  it('TaskManagers SIGKILLed (once between a completed checkpoint and its commit), partitions added, the broker SIGKILLed and restarted: read_committed sees each line once', async () => {
    // Commits reach the broker 1 s after their checkpoint completed: a kill right after completion lands before the commit.
    const c = await suite.kafka.cluster({ TEST_KAFKA_COMMIT_DELAY_MS: '1000' });
    await suite.broker.createTopic('eo-in', 4);
    await suite.broker.createTopic('eo-out', 2);
    const total = 8_000;
    const cutover = 4_000;
    const steps: string[] = [];
    const t0 = Date.now();
    const step = (what: string) => steps.push(`${Date.now() - t0} ms: ${what}`);
    await suite.kafka.produce('eo-in', 0, 2_000, cutover, 10_000);
    const jobId = await suite.kafka.submit(c, ['eo-in', 'eo-out', 'eo-sums', 'EXACTLY_ONCE', '1000', '500'], ['-p', '2']);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    step('running');

    const phase2 = suite.kafka.produce('eo-in', 2_000, cutover, cutover);
    await sleep(1_500 + Math.random() * 1_500);
    step(`SIGKILL ${(await c.killTaskManager(c.liveTaskManagers[Math.floor(Math.random() * 2)])).name}`);
    await c.startTaskManager();
    await phase2;

    await suite.broker.addPartitions('eo-in', 6);
    step('partitions 4 and 5 added');
    const phase3 = suite.kafka.produce('eo-in', cutover, 6_000, cutover);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    await nextCompletedCheckpoint(c, jobId);
    step(`SIGKILL ${(await c.killTaskManager(c.liveTaskManagers[0])).name} right after a checkpoint completed`);
    await c.startTaskManager();
    await phase3;

    await suite.broker.kill();
    step('SIGKILL the broker');
    await sleep(2_000);
    await suite.broker.restart();
    step('broker restarted');
    await suite.kafka.produce('eo-in', 6_000, total, cutover);
    step('all input produced');

    const lines = await suite.kafka.waitForOutput('eo-out', total, 90_000);
    step(`${lines.length} lines committed`);
    const evidence = kafkaEvidence(c, steps);
    await c.weir(['cancel', jobId]);
    expect(lines.length, evidence).toBe(total);
    expect(lines.sort(), evidence).toEqual(expectedKafkaSums(total, cutover));
  });
});
