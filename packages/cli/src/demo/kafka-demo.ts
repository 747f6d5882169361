import { WeirError } from '@weir/common';
import { diffLines, exampleJobs, expectedKafkaSums, kafkaInputRecord } from '@weir/examples';
import { javaAvailable, KafkaBroker, produceValues, readTopic } from '@weir/kafka-broker';
import { bundleJob } from '../bundle.ts';
import { JobClient } from '../client/job-client.ts';
import type { LocalCluster } from '../cluster/local-cluster.ts';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';

const EVENTS = 20_000;
const BATCH = 500;
const KILL_AFTER_MS = 4_000;
const VICTIM = 'taskmanager-1';
const OUTPUT_TIMEOUT_MS = 180_000;

/** Whether this machine can run the Kafka step; says why not in one line when it cannot. */
export function kafkaDemoPossible(context: CliContext): boolean {
  if (javaAvailable()) return true;
  context.out('Skipping the Kafka step: it runs a real Apache Kafka broker, which needs a JDK 17+ (`java`) and Maven; `pnpm demo kafka` runs it alone');
  return false;
}

/**
 * `pnpm demo kafka` (and the last step of `pnpm demo` where a JDK is present): starts an
 * Apache Kafka broker (KRaft, from Maven Central), runs the Kafka running-sums example
 * (KafkaSource → keyed state → KafkaSink, EXACTLY_ONCE, checkpoints every second) while input
 * is produced, SIGKILLs a TaskManager four seconds in, and reads the output topic as a
 * read_committed consumer: every line must be there exactly once.
 */
export async function kafkaDemo(cluster: LocalCluster, context: CliContext): Promise<void> {
  context.out('Starting an Apache Kafka broker (KRaft mode) on a free port…');
  const broker = await KafkaBroker.start();
  const client = JobClient.connect(cluster.jobManagerAddress);
  let killer: NodeJS.Timeout | undefined;
  try {
    context.out(`Kafka broker up at ${broker.bootstrapServers}; topics demo-in (4 partitions) and demo-out (2)`);
    await broker.createTopic('demo-in', 4);
    await broker.createTopic('demo-out', 2);
    const bundle = await bundleJob(exampleJobs.kafkaRunningSums);
    const args = [broker.bootstrapServers, 'demo-in', 'demo-out', 'weir-demo', 'EXACTLY_ONCE', '1000', '1000'];
    const { jobId } = await client.submit({ bundle: Buffer.from(bundle.code), entryName: bundle.entryName, args, parallelism: 2 });
    context.out(`Job has been submitted with JobID ${jobId}: Kafka demo-in → running sums → Kafka demo-out, EXACTLY_ONCE`);
    killer = setTimeout(() => {
      const pid = cluster.supervisor.pid(VICTIM);
      if (pid === undefined) return;
      context.out(`Killing ${VICTIM} (pid ${pid}) with SIGKILL; the cluster restarts it in 2 s`);
      process.kill(pid, 'SIGKILL');
    }, KILL_AFTER_MS);
    for (let i = 0; i < EVENTS; i += BATCH) {
      await produceValues(broker.bootstrapServers, 'demo-in', Array.from({ length: BATCH }, (_, j) => kafkaInputRecord(i + j)));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    context.out(`Produced ${EVENTS} events; waiting for the committed output…`);
    const lines = await committedOutput(broker, EVENTS);
    const { missing, extra } = diffLines(lines.sort(), expectedKafkaSums(EVENTS));
    if (missing.length > 0 || extra.length > 0) {
      throw new WeirError(CliErrorCode.DEMO_FAILED, `the Kafka output is not exactly-once: ${missing.length} lines missing, ${extra.length} extra (read_committed)`);
    }
    const history = await client.checkpoints(jobId);
    // No checkpoint had completed when the kill came (a slow start): the job restarted from the topics' start, which is exactly-once too.
    const restart = history.restoredFrom === 0 ? 'restarted from the start (the kill came before the first checkpoint)' : `restored from checkpoint ${history.restoredFrom}`;
    context.out(
      `Kafka: ${EVENTS} events, ${history.completed} checkpoints, ${restart} after the kill; ` +
        'a read_committed consumer of demo-out sees every expected line exactly once',
    );
    await client.cancel(jobId);
  } finally {
    clearTimeout(killer);
    client.close();
    await broker.destroy();
  }
}

async function committedOutput(broker: KafkaBroker, count: number): Promise<string[]> {
  const deadline = Date.now() + OUTPUT_TIMEOUT_MS;
  for (;;) {
    const lines = (await readTopic(broker.bootstrapServers, 'demo-out')).map((r) => r.value ?? '');
    if (lines.length >= count) return lines;
    if (Date.now() > deadline) {
      throw new WeirError(CliErrorCode.DEMO_FAILED, `only ${lines.length} of ${count} output lines were committed within ${OUTPUT_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
