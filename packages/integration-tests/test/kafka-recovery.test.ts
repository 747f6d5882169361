import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { javaAvailable, readCommittedWithJavaClient, readTopic } from '@weir/kafka-broker';
import { expectedKafkaSums } from '@weir/examples';
import { getJob, savepointPathFrom, waitForStatus } from '../src/index.ts';
import { kafkaSuite } from './kafka-suite.ts';

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The Kafka running-sums example on a process cluster and a real broker, beyond the
 * exactly-once chaos run (kafka-exactly-once.test.ts): AT_LEAST_ONCE loses nothing when a
 * TaskManager dies; an EXACTLY_ONCE job rides out a broker down for 15 s without failing
 * over; a job submitted while the broker is down names the cause and starts once it is up; a
 * savepoint taken at p=2 resumes at p=3 with exact output.
 */
describe.skipIf(!javaAvailable())('Kafka jobs through failures and a rescale', () => {
  const suite = kafkaSuite();

  it('AT_LEAST_ONCE: a TaskManager SIGKILLed, nothing missing', async () => {
    const c = await suite.kafka.cluster();
    await suite.broker.createTopic('alo-in', 4);
    await suite.broker.createTopic('alo-out', 2);
    const total = 4_000;
    await suite.kafka.produce('alo-in', 0, 1_000, total, 10_000);
    const jobId = await suite.kafka.submit(c, ['alo-in', 'alo-out', 'alo-sums', 'AT_LEAST_ONCE', '500', '0'], ['-p', '2']);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    const producing = suite.kafka.produce('alo-in', 1_000, total, total);
    await sleep(1_500 + Math.random() * 1_000);
    await c.killTaskManager(c.liveTaskManagers[1]);
    await c.startTaskManager();
    await producing;
    const deadline = Date.now() + 90_000;
    let missing: number[] = [];
    do {
      await sleep(1_000);
      const seen = new Set((await readTopic(suite.broker.bootstrapServers, 'alo-out')).map((r) => Number(r.value!.split(' ')[1])));
      missing = Array.from({ length: total }, (_, i) => i).filter((i) => !seen.has(i));
    } while (missing.length > 0 && Date.now() < deadline);
    await c.weir(['cancel', jobId]);
    expect(missing.slice(0, 20), c.logs()).toEqual([]);
  });

  it('EXACTLY_ONCE through a broker down for 15 s: sources, sinks and commits wait for it, at most one failover, exact output', async () => {
    const c = await suite.kafka.cluster();
    await suite.broker.createTopic('outage-in', 4);
    await suite.broker.createTopic('outage-out', 2);
    const total = 6_000;
    await suite.kafka.produce('outage-in', 0, 2_000, total, 10_000);
    const jobId = await suite.kafka.submit(c, ['outage-in', 'outage-out', 'outage-sums', 'EXACTLY_ONCE', '500', '0'], ['-p', '2']);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    // Produced whole before the broker goes: a produce cut by the kill cannot be retried without writing some input twice.
    await suite.kafka.produce('outage-in', 2_000, 4_000, total);
    expect((await suite.kafka.waitForOutput('outage-out', 1, 60_000)).length, c.logs()).toBeGreaterThan(0);
    await suite.broker.kill();
    const killed = Date.now();
    await sleep(15_000);
    await suite.broker.restart();
    const downMs = Date.now() - killed;
    await suite.kafka.produce('outage-in', 4_000, total, total);
    await suite.kafka.waitForOutput('outage-out', total, 90_000);
    const lines = await readCommittedWithJavaClient(suite.broker.bootstrapServers, 'outage-out');
    const { attempt, failovers } = await getJob(c.client, jobId);
    await c.weir(['cancel', jobId]);
    expect(lines.sort(), c.logs()).toEqual(expectedKafkaSums(total, total));
    expect(downMs).toBeGreaterThanOrEqual(15_000);
    expect(attempt, `broker down ${downMs} ms, failovers: ${attempt}\n${failovers.map((f) => `${f.code}: ${f.cause}`).join("\n")}`).toBeLessThanOrEqual(1);
  });

  it('starts while the broker is down (the cause named, restarts until it is up), then rescales 2 -> 3 through a savepoint with exact output', async () => {
    const c = await suite.kafka.cluster();
    await suite.broker.createTopic('rs-in', 4);
    await suite.broker.createTopic('rs-out', 2);
    const total = 4_000;
    await suite.kafka.produce('rs-in', 0, 1_500, total, 10_000);
    await suite.broker.stop();
    const first = await suite.kafka.submit(c, ['rs-in', 'rs-out', 'rs-sums', 'EXACTLY_ONCE', '500', '0'], ['-p', '2']);
    const deadline = Date.now() + 60_000;
    while (!c.jobManager.output.includes(`cannot reach the Kafka cluster at ${suite.broker.bootstrapServers} (bootstrap.servers, setBootstrapServers)`)) {
      expect(Date.now() < deadline, `no unreachable-broker cause in the JobManager's log:\n${c.logs()}`).toBe(true);
      await sleep(500);
    }
    await suite.broker.restart();
    await waitForStatus(c.client, first, ['RUNNING'], 60_000);
    expect((await suite.kafka.waitForOutput('rs-out', 1, 60_000)).length, c.logs()).toBeGreaterThan(0);
    const stop = await c.weir(['stop', '--savepointPath', join(tmpdir(), `weir-kafka-sp-${process.pid}`), first]);
    expect(stop.code, `${stop.stdout}\n${stop.stderr}\n${c.logs()}`).toBe(0);

    const second = await suite.kafka.submit(c, ['rs-in', 'rs-out', 'rs-sums', 'EXACTLY_ONCE', '500', '0'], ['-s', savepointPathFrom(stop), '-p', '3']);
    await waitForStatus(c.client, second, ['RUNNING']);
    await suite.kafka.produce('rs-in', 1_500, total, total);
    const lines = await suite.kafka.waitForOutput('rs-out', total, 90_000);
    await c.weir(['cancel', second]);
    expect(lines.sort(), c.logs()).toEqual(expectedKafkaSums(total, total));
  });
});
