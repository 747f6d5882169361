import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleJobs, kafkaInputRecord } from '@weir/examples';
import { jobIdFrom, listCheckpoints, ProcessCluster, waitForStatus } from '@weir/integration-tests';
import {
  committedEndOffsets,
  copyTopicWithJavaClient,
  copyTopicWithNodeClient,
  initTransactionCoordinator,
  KafkaBroker,
  produceValues,
  readTopic,
  type CopyResult,
} from '@weir/kafka-broker';
import { appendKafkaCsv, cpuPerMillion, recordsPerSecond, type Round, type Side } from '../kafka/kafka-csv.ts';
import { cpuSeconds } from '../process-cpu.ts';
import type { Scenario } from '../scenario.ts';
import { median } from '../stats.ts';

const RECORDS = 1_000_000;
const GUARANTEES = ['NONE', 'AT_LEAST_ONCE', 'EXACTLY_ONCE'] as const;
/** Output records of the unmeasured warm-up job. */
const WARM_UP_RECORDS = 100_000;

/**
 * Resolves once `topic` holds `count` records a read_committed consumer sees, with the time
 * (`performance.now()`) the check that found them started. Without transactions the last
 * stable offsets are the record count; with them they also count the transactions' markers,
 * so the topic is read (once they could hold `count`) to count the committed records. Polls the
 * offsets only: reading the topic every poll would take the CPU the job under measurement needs.
 */
async function untilCommitted(broker: KafkaBroker, topic: string, count: number, transactional: boolean, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const readAt = performance.now();
    const possible = (await committedEndOffsets(broker.bootstrapServers, topic)) >= BigInt(count);
    if (possible && (!transactional || (await readTopic(broker.bootstrapServers, topic)).length >= count)) return readAt;
    if (Date.now() > deadline) throw new Error(`${topic} did not reach ${count} committed records within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A plain copy of `bench-in` with the broker's CPU meanwhile. */
async function copySide(broker: KafkaBroker, copy: (bootstrap: string, from: string, to: string) => Promise<CopyResult>, to: string, records: number): Promise<Side> {
  await broker.createTopic(to, 2);
  const brokerBefore = cpuSeconds(broker.pid);
  const result = await copy(broker.bootstrapServers, 'bench-in', to);
  if (result.records !== records) throw new Error(`the copy into ${to} moved ${result.records} records, not ${records}`);
  return { ms: result.ms, cpuSeconds: result.cpuSeconds, brokerCpuSeconds: cpuSeconds(broker.pid) - brokerBefore };
}

/** The Weir side: its CPU and time, and the synchronous part of its completed checkpoints (the sink's flush at the barrier sits in it). */
interface WeirSide extends Side {
  readonly syncMedianMs: number;
  readonly syncMaxMs: number;
}

/** Submits the running-sums job reading `bench-in` into `out` (made here) and waits for RUNNING; returns its id. */
async function startJob(broker: KafkaBroker, cluster: ProcessCluster, guarantee: string, out: string, prefix: string): Promise<string> {
  await broker.createTopic(out, 2);
  const run = await cluster.weir(['run', '--detached', '-p', '2', exampleJobs.kafkaRunningSums, '--', broker.bootstrapServers, 'bench-in', out, prefix, guarantee, '1000', '0']);
  if (run.code !== 0) throw new Error(`weir run failed: ${run.stderr}`);
  const jobId = jobIdFrom(run.stdout);
  await waitForStatus(cluster.client, jobId, ['RUNNING']);
  return jobId;
}

/**
 * The job with NONE until WARM_UP_RECORDS of its output are in, unmeasured: a TaskManager's
 * first job loads and compiles the connector and client modules, and without this the first
 * guarantee measured (always NONE by default) paid for it alone. The Java copy's JVM start is
 * not measured either.
 */
async function warmUp(broker: KafkaBroker, cluster: ProcessCluster): Promise<void> {
  const jobId = await startJob(broker, cluster, 'NONE', 'bench-warm-up', 'bench-warm-up');
  await untilCommitted(broker, 'bench-warm-up', WARM_UP_RECORDS, false, 300_000);
  await cluster.weir(['cancel', jobId]);
  await waitForStatus(cluster.client, jobId, ['CANCELED']);
}

/** The running-sums job with `guarantee`, from RUNNING to its last output record committed, with the CPU of Weir's processes and the broker's. */
async function weirSide(broker: KafkaBroker, cluster: ProcessCluster, guarantee: string, records: number): Promise<WeirSide> {
  const out = `bench-out-${guarantee}`;
  const jobId = await startJob(broker, cluster, guarantee, out, `bench-${guarantee}`);
  const started = performance.now();
  const weirProcesses = [cluster.jobManager, ...cluster.taskManagers].map((p) => p.pid);
  const weirCpuBefore = weirProcesses.map(cpuSeconds);
  const brokerBefore = cpuSeconds(broker.pid);
  const ms = (await untilCommitted(broker, out, records, guarantee === 'EXACTLY_ONCE', 900_000)) - started;
  const cpu = weirProcesses.map(cpuSeconds).reduce((sum, now, i) => sum + now - weirCpuBefore[i]!, 0);
  const brokerCpuSeconds = cpuSeconds(broker.pid) - brokerBefore;
  const sync = (await listCheckpoints(cluster.client, jobId)).checkpoints.filter((c) => c.status === 'COMPLETED').map((c) => c.syncMs);
  await cluster.weir(['cancel', jobId]);
  return { ms, cpuSeconds: cpu, brokerCpuSeconds, syncMedianMs: sync.length === 0 ? 0 : median(sync), syncMaxMs: sync.length === 0 ? 0 : Math.max(...sync) };
}

/**
 * Kafka → keyed running sum → Kafka (p=2 on 2 TaskManagers, 1 s checkpoints) for each delivery
 * guarantee, against the broker's own ceiling in the same run: a single-threaded copy of the
 * same input topic (4 partitions) with Kafka's Java clients, and one with the Node client Weir
 * uses. The three sides of a guarantee run one after the other, in an order that alternates
 * from one guarantee to the next, so a change in the machine's load hits them alike. The
 * broker's transaction coordinator is set up first (a cluster's one-time cost, not the job's).
 */
export const kafka: Scenario = {
  name: 'kafka',
  description: `Kafka → keyed running sum → Kafka (p=2, 1 s checkpoints) for ${GUARANTEES.join(', ')} (--guarantees), ${RECORDS} records unless --records, each vs same-run plain copies with the Java and the Node client; rows appended to results/kafka.csv`,
  async run({ profileDir, records: recordsOption, guarantees: guaranteesOption }) {
    const records = recordsOption ?? RECORDS;
    const guarantees = guaranteesOption ?? GUARANTEES;
    const broker = await KafkaBroker.start();
    const dir = mkdtempSync(join(tmpdir(), 'weir-bench-kafka-'));
    try {
      await broker.createTopic('bench-in', 4);
      const chunk = 10_000;
      for (let i = 0; i < records; i += chunk) {
        await produceValues(broker.bootstrapServers, 'bench-in', Array.from({ length: Math.min(chunk, records - i) }, (_, j) => kafkaInputRecord(i + j)));
      }
      await initTransactionCoordinator(broker.bootstrapServers);

      const cluster = await ProcessCluster.start({
        taskManagers: 2,
        slots: 2,
        config: { 'state.checkpoints.dir': join(dir, 'checkpoints') },
        taskManagerNodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      });
      const rounds: (Round & { weir: WeirSide })[] = [];
      try {
        await warmUp(broker, cluster);
        for (const [i, guarantee] of guarantees.entries()) {
          const sides: { weir?: WeirSide; java?: Side; node?: Side } = {};
          const order = i % 2 === 0 ? (['java', 'weir', 'node'] as const) : (['weir', 'node', 'java'] as const);
          for (const side of order) {
            if (side === 'weir') sides.weir = await weirSide(broker, cluster, guarantee, records);
            else if (side === 'java') sides.java = await copySide(broker, copyTopicWithJavaClient, `bench-java-${guarantee}`, records);
            else sides.node = await copySide(broker, copyTopicWithNodeClient, `bench-node-${guarantee}`, records);
          }
          const round = { guarantee, weir: sides.weir!, java: sides.java!, node: sides.node!, load: loadavg()[0]! } satisfies Round;
          appendKafkaCsv(records, round, profileDir !== undefined);
          rounds.push(round);
        }
      } finally {
        await cluster.stop();
      }
      const rate = (side: Side) => recordsPerSecond(records, side);
      const cpu = (seconds: number) => cpuPerMillion(records, seconds).toFixed(1);
      const figures: Record<string, number> = {};
      const rows: [string, string, string][] = [];
      for (const { guarantee, weir, java, node, load } of rounds) {
        Object.assign(figures, {
          [`${guarantee}_weirRecordsPerSecond`]: rate(weir),
          [`${guarantee}_javaCopyRecordsPerSecond`]: rate(java),
          [`${guarantee}_nodeCopyRecordsPerSecond`]: rate(node),
          [`${guarantee}_weirOverJava`]: rate(weir) / rate(java),
          [`${guarantee}_weirOverNode`]: rate(weir) / rate(node),
          [`${guarantee}_weirCpuSecondsPerMillion`]: cpuPerMillion(records, weir.cpuSeconds),
          [`${guarantee}_checkpointSyncMedianMs`]: weir.syncMedianMs,
          [`${guarantee}_load`]: load,
        });
        rows.push(
          [`${guarantee}: Weir keyed sums`, rate(weir).toFixed(0), 'records/s'],
          ['  Java client copy / Node client copy', `${rate(java).toFixed(0)} / ${rate(node).toFixed(0)}`, 'records/s'],
          ['  Weir / Java copy, Weir / Node copy', `${(rate(weir) / rate(java)).toFixed(2)} / ${(rate(weir) / rate(node)).toFixed(2)}`, '×'],
          // CPU is what a loaded machine runs out of first: what each side costs, whatever else runs.
          ['  CPU per 1M records: Weir (JM + TMs) / Java copy / Node copy', `${cpu(weir.cpuSeconds)} / ${cpu(java.cpuSeconds)} / ${cpu(node.cpuSeconds)}`, 's'],
          ['  broker CPU per 1M records during Weir / Java / Node', `${cpu(weir.brokerCpuSeconds)} / ${cpu(java.brokerCpuSeconds)} / ${cpu(node.brokerCpuSeconds)}`, 's'],
          ['  checkpoints\' synchronous part (the sink flushes in it): median / longest', `${weir.syncMedianMs} / ${weir.syncMaxMs}`, 'ms'],
          ['  load average (1 min) at the end of the round', load.toFixed(2), ''],
        );
      }
      return { figures, rows };
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await broker.destroy();
    }
  },
};
