import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { javaAvailable, KafkaBroker, produceValues, readTopic } from '@weir/kafka-broker';
import { exampleJobs, expectedKafkaSums, kafkaInputRecord } from '@weir/examples';
import { jobIdFrom, ProcessCluster, savepointPathFrom, waitForStatus } from '../src/index.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 16's acceptance on a process cluster and a real Kafka broker: the Kafka running-sums
 * example (KafkaSource -> keyBy -> running sums in ValueState -> KafkaSink), read back by a
 * read_committed consumer of our own (`readTopic`), which must see exactly the expected lines
 * (`expectedKafkaSums`): none missing, none twice.
 */
describe.skipIf(!javaAvailable())('Kafka end to end on a process cluster', () => {
  let broker: KafkaBroker;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    broker = await KafkaBroker.start();
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  afterAll(async () => {
    await broker?.destroy();
  });

  async function cluster(env: Record<string, string> = {}): Promise<ProcessCluster> {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    const dir = mkdtempSync(join(tmpdir(), 'weir-kafka-'));
    try {
      const c = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
      cleanups.push(() => c.stop());
      return c;
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }

  /** Produces inputs from..to-1 in batches at about `perSecond`. */
  async function produce(topic: string, from: number, to: number, cutover: number, perSecond = 2_000): Promise<void> {
    const batch = Math.max(1, Math.floor(perSecond / 10));
    for (let i = from; i < to; i += batch) {
      const values = Array.from({ length: Math.min(batch, to - i) }, (_, j) => kafkaInputRecord(i + j, cutover));
      await produceValues(broker.bootstrapServers, topic, values);
      await sleep(100);
    }
  }

  async function submit(c: ProcessCluster, args: string[], extra: string[] = []): Promise<string> {
    const run = await c.weir(['run', '--detached', ...extra, exampleJobs.kafkaRunningSums, '--', broker.bootstrapServers, ...args]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    return jobIdFrom(run.stdout);
  }

  async function waitForOutput(topic: string, count: number, timeoutMs: number, why: () => string): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lines = (await readTopic(broker.bootstrapServers, topic)).map((r) => r.value ?? '');
      if (lines.length >= count || Date.now() > deadline) {
        expect(lines.length, why()).toBeGreaterThanOrEqual(count);
        return lines;
      }
      await sleep(1_000);
    }
  }

  it('AT_LEAST_ONCE: a TaskManager SIGKILLed, nothing missing', async () => {
    const c = await cluster();
    await broker.createTopic('alo-in', 4);
    await broker.createTopic('alo-out', 2);
    const total = 4_000;
    await produce('alo-in', 0, 1_000, total, 10_000);
    const jobId = await submit(c, ['alo-in', 'alo-out', 'alo-sums', 'AT_LEAST_ONCE', '500', '0']);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    const producing = produce('alo-in', 1_000, total, total);
    await sleep(1_500 + Math.random() * 1_000);
    await c.killTaskManager(c.liveTaskManagers[1]);
    await c.startTaskManager();
    await producing;
    const deadline = Date.now() + 120_000;
    let missing: number[] = [];
    do {
      await sleep(1_000);
      const seen = new Set((await readTopic(broker.bootstrapServers, 'alo-out')).map((r) => Number(r.value!.split(' ')[1])));
      missing = Array.from({ length: total }, (_, i) => i).filter((i) => !seen.has(i));
    } while (missing.length > 0 && Date.now() < deadline);
    await c.weir(['cancel', jobId]);
    expect(missing.slice(0, 20), c.logs()).toEqual([]);
  });

  it('starts while the broker is down (the cause named, restarts until it is up), then rescales 2 -> 3 through a savepoint with exact output', async () => {
    const c = await cluster();
    await broker.createTopic('rs-in', 4);
    await broker.createTopic('rs-out', 2);
    const total = 4_000;
    await produce('rs-in', 0, 1_500, total, 10_000);
    await broker.stop();
    const first = await submit(c, ['rs-in', 'rs-out', 'rs-sums', 'EXACTLY_ONCE', '500', '0'], ['-p', '2']);
    const deadline = Date.now() + 60_000;
    while (!c.jobManager.output.includes(`cannot reach the Kafka cluster at ${broker.bootstrapServers} (bootstrap.servers, setBootstrapServers)`)) {
      expect(Date.now() < deadline, `no unreachable-broker cause in the JobManager's log:\n${c.logs()}`).toBe(true);
      await sleep(500);
    }
    await broker.restart();
    await waitForStatus(c.client, first, ['RUNNING'], 60_000);
    await sleep(2_000);
    await waitForOutput('rs-out', 1, 60_000, () => c.logs());
    const stop = await c.weir(['stop', '--savepointPath', join(tmpdir(), `weir-kafka-sp-${process.pid}`), first]);
    expect(stop.code, `${stop.stdout}\n${stop.stderr}\n${c.logs()}`).toBe(0);

    const second = await submit(c, ['rs-in', 'rs-out', 'rs-sums', 'EXACTLY_ONCE', '500', '0'], ['-s', savepointPathFrom(stop), '-p', '3']);
    await waitForStatus(c.client, second, ['RUNNING']);
    await produce('rs-in', 1_500, total, total);
    const lines = await waitForOutput('rs-out', total, 120_000, () => c.logs());
    await c.weir(['cancel', second]);
    expect(lines.sort()).toEqual(expectedKafkaSums(total, total));
  });
});
