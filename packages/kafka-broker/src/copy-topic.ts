import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Consumer, FetchIsolationLevels, IS_CONTROL, Producer, type MessageToProduce } from '@platformatic/kafka';
import { kafkaClasspath } from './classpath.ts';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', 'java', 'CopyTopic.java');

const SEND_RECORDS = 10_000;

/** What a plain copy of a topic took: records copied, wall time, and the CPU time of the copying process meanwhile. */
export interface CopyResult {
  readonly records: number;
  readonly ms: number;
  readonly cpuSeconds: number;
}

/**
 * Copies `from` (to its end offsets at start) into `to` with Kafka's own Java clients on one
 * thread, with their defaults (`java/CopyTopic.java`, compiled with javac first so neither the
 * compilation nor the JVM's start is timed): the reference a Kafka-to-Kafka job is measured against.
 */
export async function copyTopicWithJavaClient(bootstrapServers: string, from: string, to: string): Promise<CopyResult> {
  const classes = mkdtempSync(join(tmpdir(), 'weir-copy-topic-'));
  try {
    const classpath = kafkaClasspath();
    await promisify(execFile)('javac', ['-cp', classpath, '-d', classes, SOURCE], { timeout: 120_000 });
    const { stdout } = await promisify(execFile)('java', ['-cp', `${classes}:${classpath}`, 'CopyTopic', bootstrapServers, from, to], { timeout: 900_000 });
    const [records, ms, cpuNs] = stdout.trim().split('\n').at(-1)!.split(' ').map(Number);
    return { records: records!, ms: ms!, cpuSeconds: cpuNs! / 1e9 };
  } finally {
    rmSync(classes, { recursive: true, force: true });
  }
}

/**
 * The same copy with the Node client Weir uses (`@platformatic/kafka`), as a plain program would
 * write it: one read_committed fetch of every partition at a time (1 MiB per partition), the
 * next fetch in flight while the previous one's records go out through an idempotent producer
 * (acks=all), at most 10,000 records a send. Timed and CPU-measured in this process, which should do nothing else meanwhile.
 */
export async function copyTopicWithNodeClient(bootstrapServers: string, from: string, to: string): Promise<CopyResult> {
  const consumer = new Consumer({ clientId: 'weir-bench-copy', groupId: `weir-bench-copy-${process.pid}`, bootstrapBrokers: [bootstrapServers], retries: 5 });
  const producer = new Producer({ clientId: 'weir-bench-copy', bootstrapBrokers: [bootstrapServers], idempotent: true, producerId: -1n, producerEpoch: -1, retries: 5 });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let copied = 0;
  try {
    const topic = (await consumer.metadata({ topics: [from], forceUpdate: true })).topics.get(from)!;
    const ends = (await consumer.listOffsets({ topics: [from], timestamp: -1n, isolationLevel: FetchIsolationLevels.READ_COMMITTED })).get(from)!;
    const positions = ends.map(() => 0n);
    const fetchNext = () =>
      consumer.fetch({
        node: topic.partitions[0]!.leader,
        isolationLevel: FetchIsolationLevels.READ_COMMITTED,
        maxWaitTime: 100,
        topics: [{ topicId: topic.id, partitions: positions.flatMap((p, partition) => (p < ends[partition]! ? [{ partition, fetchOffset: p, currentLeaderEpoch: -1, lastFetchedEpoch: -1, partitionMaxBytes: 1 << 20 }] : [])) }],
      });
    const deadline = Date.now() + 900_000;
    let pending = fetchNext();
    while (positions.some((p, partition) => p < ends[partition]!)) {
      if (Date.now() > deadline) throw new Error(`copying ${from}: not at the end offsets within 900 s`);
      const response = await pending;
      const messages: MessageToProduce[] = [];
      for (const data of response.responses[0]?.partitions ?? []) {
        for (const batch of data.records ?? []) {
          positions[data.partitionIndex] = batch.firstOffset + BigInt(batch.lastOffsetDelta) + 1n;
          if (batch.attributes & IS_CONTROL) continue;
          for (const record of batch.records) messages.push({ topic: to, key: record.key ?? undefined, value: record.value ?? undefined });
        }
      }
      if (positions.some((p, partition) => p < ends[partition]!)) pending = fetchNext();
      // A produce request's batch per partition must stay under the broker's message.max.bytes (1 MiB).
      for (let from = 0; from < messages.length; from += SEND_RECORDS) await producer.send({ messages: messages.slice(from, from + SEND_RECORDS) });
      copied += messages.length;
    }
  } finally {
    await producer.close();
    await consumer.close(true);
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { records: copied, ms, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}
