import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleJobs, kafkaInputRecord } from '@weir/examples';
import { jobIdFrom, ProcessCluster, waitForStatus } from '@weir/integration-tests';
import { committedEndOffsets, initTransactionCoordinator, KafkaBroker, produceValues, readTopic } from '@weir/kafka-broker';
import { cpuSeconds } from '../process-cpu.ts';
import type { Scenario } from '../scenario.ts';

const RECORDS = 100_000;

/**
 * Resolves once the topic holds `count` records a read_committed consumer sees, with the time
 * (`performance.now()`) the read that found them started: they were committed by then, give
 * or take the few milliseconds that read takes to connect, as it reads up to the last stable
 * offset it finds first. Reading 100,000 records takes this process most of a second on a
 * busy machine, which is no part of the job's time. Reads the topic only once its committed
 * end offsets could hold them: reading it every poll would take the CPU the job under
 * measurement needs.
 */
async function untilCommitted(broker: KafkaBroker, topic: string, count: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const possible = (await committedEndOffsets(broker.bootstrapServers, topic)) >= BigInt(count);
    const readAt = performance.now();
    if (possible && (await readTopic(broker.bootstrapServers, topic)).length >= count) return readAt;
    if (Date.now() > deadline) throw new Error(`${topic} did not reach ${count} committed records within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Kafka → keyed running sum → Kafka with EXACTLY_ONCE and 1 s checkpoints on a process
 * cluster (2 TaskManagers, parallelism 2), against the broker's own ceiling here: a consumer
 * and a producer that just copy the topic, in the same run on the same broker. Both move the
 * same 100,000 records already in the input topic (4 partitions). The broker's transaction
 * coordinator is set up before either starts (a cluster's one-time cost, not the job's).
 */
export const kafka: Scenario = {
  name: 'kafka',
  description: `${RECORDS} records Kafka → keyed running sum → Kafka (EXACTLY_ONCE, 1 s checkpoints, p=2) vs a plain copy of the topic`,
  async run({ profileDir }) {
    const broker = await KafkaBroker.start();
    try {
      await broker.createTopic('bench-in', 4);
      await broker.createTopic('bench-copy', 2);
      await broker.createTopic('bench-out', 2);
      for (let i = 0; i < RECORDS; i += 10_000) {
        await produceValues(broker.bootstrapServers, 'bench-in', Array.from({ length: Math.min(10_000, RECORDS - i) }, (_, j) => kafkaInputRecord(i + j)));
      }

      await initTransactionCoordinator(broker.bootstrapServers);

      const copyStarted = performance.now();
      const copyCpuBefore = process.cpuUsage();
      const brokerCpuBeforeCopy = cpuSeconds(broker.pid);
      const records = await readTopic(broker.bootstrapServers, 'bench-in');
      await produceValues(broker.bootstrapServers, 'bench-copy', records.map((r) => ({ value: r.value ?? '' })));
      const copyMs = performance.now() - copyStarted;
      const copyCpuUsage = process.cpuUsage(copyCpuBefore);
      const copyCpu = (copyCpuUsage.user + copyCpuUsage.system) / 1e6;
      const brokerCpuCopy = cpuSeconds(broker.pid) - brokerCpuBeforeCopy;

      const dir = mkdtempSync(join(tmpdir(), 'weir-bench-kafka-'));
      const cluster = await ProcessCluster.start({
        taskManagers: 2,
        slots: 2,
        config: { 'state.checkpoints.dir': join(dir, 'checkpoints') },
        taskManagerNodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      });
      let weirMs: number;
      let weirCpu: number;
      let brokerCpuWeir: number;
      try {
        const run = await cluster.weir(['run', '--detached', '-p', '2', exampleJobs.kafkaRunningSums, '--', broker.bootstrapServers, 'bench-in', 'bench-out', 'bench', 'EXACTLY_ONCE', '1000', '0']);
        if (run.code !== 0) throw new Error(`weir run failed: ${run.stderr}`);
        const jobId = jobIdFrom(run.stdout);
        await waitForStatus(cluster.client, jobId, ['RUNNING']);
        const started = performance.now();
        const weirProcesses = [cluster.jobManager, ...cluster.taskManagers].map((p) => p.pid);
        const weirCpuBefore = weirProcesses.map(cpuSeconds);
        const brokerCpuBefore = cpuSeconds(broker.pid);
        weirMs = (await untilCommitted(broker, 'bench-out', RECORDS, 300_000)) - started;
        weirCpu = weirProcesses.map(cpuSeconds).reduce((sum, now, i) => sum + now - weirCpuBefore[i]!, 0);
        brokerCpuWeir = cpuSeconds(broker.pid) - brokerCpuBefore;
        await cluster.weir(['cancel', jobId]);
      } finally {
        await cluster.stop();
        rmSync(dir, { recursive: true, force: true });
      }
      const weirRate = RECORDS / (weirMs / 1000);
      const copyRate = RECORDS / (copyMs / 1000);
      return {
        figures: { weirRecordsPerSecond: weirRate, copyRecordsPerSecond: copyRate, ratio: weirRate / copyRate, weirCpuSeconds: weirCpu, copyCpuSeconds: copyCpu, brokerCpuSecondsWeir: brokerCpuWeir, brokerCpuSecondsCopy: brokerCpuCopy },
        rows: [
          ['Weir EXACTLY_ONCE keyed sums', weirRate.toFixed(0), 'records/s'],
          ['plain consumer + producer copy', copyRate.toFixed(0), 'records/s'],
          ['Weir / copy', (weirRate / copyRate).toFixed(2), '×'],
          // CPU is what a loaded machine runs out of first: these say what each side costs, whatever else runs.
          ['Weir CPU (JobManager + TaskManagers)', weirCpu.toFixed(1), 's'],
          ['copy CPU (its one process)', copyCpu.toFixed(1), 's'],
          ['broker CPU during Weir / during the copy', `${brokerCpuWeir.toFixed(1)} / ${brokerCpuCopy.toFixed(1)}`, 's'],
        ],
      };
    } finally {
      await broker.destroy();
    }
  },
};
