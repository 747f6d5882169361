import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { produceValues, readTopic, type KafkaBroker } from '@weir/kafka-broker';
import { exampleJobs, kafkaInputRecord } from '@weir/examples';
import { ProcessCluster } from './cluster.ts';
import { jobIdFrom } from './jobs.ts';
import { logLines } from './log-lines.ts';

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The Kafka running-sums example (packages/examples/jobs/kafka-running-sums.ts) on a process
 * cluster against a real broker: what the Kafka process tests share. Clusters it starts are
 * stopped by `cleanup()`.
 */
export class KafkaJobHarness {
  readonly #cleanups: Array<() => Promise<void>> = [];

  constructor(readonly broker: KafkaBroker) {}

  /** 2 TaskManagers with 2 slots each; `env` is set for the cluster's processes only. */
  async cluster(env: Record<string, string> = {}): Promise<ProcessCluster> {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    const dir = mkdtempSync(join(tmpdir(), 'weir-kafka-'));
    try {
      const c = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.dir': join(dir, 'checkpoints') } });
      this.#cleanups.push(() => c.stop());
      return c;
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }

  async cleanup(): Promise<void> {
    for (const cleanup of this.#cleanups.splice(0).reverse()) await cleanup();
  }

  /** Produces inputs from..to-1 (`kafkaInputRecord`) in batches at about `perSecond`. */
  async produce(topic: string, from: number, to: number, cutover: number, perSecond = 2_000): Promise<void> {
    const batch = Math.max(1, Math.floor(perSecond / 10));
    for (let i = from; i < to; i += batch) {
      const values = Array.from({ length: Math.min(batch, to - i) }, (_, j) => kafkaInputRecord(i + j, cutover));
      await produceValues(this.broker.bootstrapServers, topic, values);
      await sleep(100);
    }
  }

  /** Submits the example detached with `args` after the bootstrap servers; returns the job id, or throws with the CLI's output. */
  async submit(c: ProcessCluster, args: string[], extra: string[] = []): Promise<string> {
    const run = await c.weir(['run', '--detached', ...extra, exampleJobs.kafkaRunningSums, '--', this.broker.bootstrapServers, ...args]);
    if (run.code !== 0) throw new Error(`weir run exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
    return jobIdFrom(run.stdout);
  }

  /** The committed output lines once there are at least `count`, or every line there is after `timeoutMs`. */
  async waitForOutput(topic: string, count: number, timeoutMs: number): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lines = (await readTopic(this.broker.bootstrapServers, topic)).map((r) => r.value ?? '');
      if (lines.length >= count || Date.now() > deadline) return lines;
      await sleep(1_000);
    }
  }
}

/** A failing Kafka test's evidence: every process's warnings, errors and job, task and connector events (the tail of each). */
export function kafkaEvidence(c: ProcessCluster, steps: readonly string[]): string {
  const noisy = /checkpoint acknowledged|checkpoint \d+ completed|checkpoint complete notified/;
  const parts = [c.jobManager, ...c.taskManagers].map((p) => {
    const lines = logLines(p.output)
      .filter((l) => !noisy.test(l.msg))
      .map((l) => {
        const rest = Object.fromEntries(Object.entries(l.fields).filter(([k]) => !['level', 'time', 'pid', 'msg', 'hostname'].includes(k)));
        return `${String(l.fields['time']).slice(11, 23)} ${l.msg} ${JSON.stringify(rest).slice(0, 300)}`;
      });
    return `--- ${p.name}\n${lines.slice(-60).join('\n')}`;
  });
  return `steps:\n${steps.join('\n')}\n${parts.join('\n')}`;
}
