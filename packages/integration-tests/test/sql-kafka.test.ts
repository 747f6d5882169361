import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { javaAvailable, produceValues, readCommittedWithJavaClient, readTopic } from '@weir/kafka-broker';
import { jobIdFrom, kafkaEvidence, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';
import { killTaskManagersAtRandom } from './chaos.ts';
import { kafkaSuite } from './kafka-suite.ts';
import { CUSTOMERS, expectedTotals, orderValue, replayUpserts, SQL_KAFKA_JOB } from './sql-kafka-jobs.ts';

const ORDERS = 6_000;

/**
 * Flink SQL from Kafka to Kafka on a process cluster and a real broker: a `kafka` table (json,
 * with the timestamp, partition and offset metadata columns) aggregated by an unbounded
 * GROUP BY into an `upsert-kafka` table, exactly-once, p=2 on 2 TaskManagers, one of them
 * SIGKILLed while orders arrive. Kafka's own Java consumer (read_committed) reads the upsert
 * topic: each customer's committed updates count its orders 1, 2, 3, ... once each, and its
 * last one equals the totals computed here.
 */
describe.skipIf(!javaAvailable())('Flink SQL kafka -> upsert-kafka on a process cluster', () => {
  const suite = kafkaSuite();
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function produce(from: number, to: number): Promise<void> {
    for (let i = from; i < to; i += 200) {
      await produceValues(suite.broker.bootstrapServers, 'sql-orders', Array.from({ length: Math.min(200, to - i) }, (_, j) => ({ value: orderValue(i + j) })));
      await sleep(100);
    }
  }

  it('an aggregation INSERT from kafka into upsert-kafka, a TaskManager SIGKILLed: read_committed sees every update once and the right totals', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-sql-kafka-'));
    // A TaskManager plans the SQL again on its event loop (seconds of parser warm-up): see sql.test.ts.
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'heartbeat.timeout': 20_000, 'state.checkpoints.dir': join(dir, 'checkpoints') } });
    cleanups.push(() => cluster.stop());
    await suite.broker.createTopic('sql-orders', 4);
    await suite.broker.createTopic('sql-totals', 2);
    await produce(0, ORDERS / 3);

    const args = [suite.broker.bootstrapServers, 'sql-orders', 'sql-totals', '500', join(dir, 'state'), '2'];
    const run = await cluster.weir(['run', '--detached', writeJobFile(SQL_KAFKA_JOB), '--', ...args]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING'], 120_000);

    // RUNNING comes before a TaskManager has planned the SQL: the kill waits for the first updates in the topic (committed or not).
    while ((await readTopic(suite.broker.bootstrapServers, 'sql-totals', false)).length < 100) await sleep(200);
    const more = produce(ORDERS / 3, ORDERS);
    const steps = await killTaskManagersAtRandom(cluster, 1, 1_000, 0);
    await more;
    steps.push('all orders produced');

    const expected = expectedTotals(ORDERS);
    let replay = replayUpserts([]);
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline) {
      replay = replayUpserts(await readCommittedWithJavaClient(suite.broker.bootstrapServers, 'sql-totals', true));
      if (replay.rows.size === CUSTOMERS && [...expected].every(([c, row]) => replay.rows.get(c) === row)) break;
      await sleep(2_000);
    }
    const evidence = kafkaEvidence(cluster, steps);
    const details = await waitForStatus(cluster.client, jobId, ['RUNNING', 'RESTARTING', 'FAILED']);
    expect(details.attempt, evidence).toBeGreaterThanOrEqual(1);
    await cluster.weir(['cancel', jobId]);
    expect(replay.problems.slice(0, 10), evidence).toEqual([]);
    expect(new Map([...replay.rows].sort()), evidence).toEqual(new Map([...expected].sort()));
  });
});
