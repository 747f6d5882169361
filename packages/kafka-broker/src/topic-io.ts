import { Admin, Consumer, FetchIsolationLevels, IS_CONTROL, IS_TRANSACTIONAL, Producer, type RecordsBatch } from '@platformatic/kafka';

export interface TopicRecord {
  readonly partition: number;
  readonly offset: bigint;
  readonly key: string | null;
  readonly value: string | null;
}

/**
 * Writes `values` (UTF-8) to `topic` without a transaction, in batches, with an idempotent
 * producer (acks=all): a produce request retried after a slow answer (a new topic's first
 * write, say) is not written twice. A value with a partition goes there, others are spread by
 * the client.
 */
export async function produceValues(
  bootstrapServers: string,
  topic: string,
  values: readonly { readonly value: string; readonly key?: string; readonly partition?: number }[],
): Promise<void> {
  const producer = new Producer({ clientId: 'weir-test-producer', bootstrapBrokers: [bootstrapServers], idempotent: true, producerId: -1n, producerEpoch: -1, retries: 5 });
  try {
    for (let i = 0; i < values.length; i += 1000) {
      await producer.send({
        messages: values.slice(i, i + 1000).map((v) => ({
          topic,
          value: Buffer.from(v.value),
          ...(v.key === undefined ? {} : { key: Buffer.from(v.key) }),
          ...(v.partition === undefined ? {} : { partition: v.partition }),
        })),
      });
    }
  } finally {
    await producer.close();
  }
}

/**
 * Every record of `topic` up to its current end: with `readCommitted` (the default) only
 * committed transactional records, as a consumer with isolation.level=read_committed sees
 * them, up to the last stable offset. Filters aborted transactions itself, by Kafka's own
 * rules (aborted-transaction index plus abort markers), so a test checks a sink's output
 * with code that the source under test does not share.
 */
export async function readTopic(bootstrapServers: string, topic: string, readCommitted = true): Promise<TopicRecord[]> {
  const isolationLevel = readCommitted ? FetchIsolationLevels.READ_COMMITTED : FetchIsolationLevels.READ_UNCOMMITTED;
  const consumer = new Consumer({ clientId: 'weir-test-reader', groupId: `weir-test-reader-${process.pid}`, bootstrapBrokers: [bootstrapServers], retries: 5 });
  try {
    const metadata = await consumer.metadata({ topics: [topic], forceUpdate: true });
    const topicMetadata = metadata.topics.get(topic)!;
    const ends = (await consumer.listOffsets({ topics: [topic], timestamp: -1n, isolationLevel })).get(topic)!;
    const records: TopicRecord[] = [];
    for (let partition = 0; partition < topicMetadata.partitionsCount; partition++) {
      const end = ends[partition]!;
      let position = 0n;
      const deadline = Date.now() + 30_000;
      while (position < end) {
        const response = await consumer.fetch({
          node: topicMetadata.partitions[partition]!.leader,
          isolationLevel,
          maxWaitTime: 100,
          topics: [{ topicId: topicMetadata.id, partitions: [{ partition, fetchOffset: position, currentLeaderEpoch: -1, lastFetchedEpoch: -1, partitionMaxBytes: 1 << 20 }] }],
        });
        const data = response.responses[0]!.partitions[0]!;
        const batches = data.records ?? [];
        if (batches.length === 0) {
          // A leader that just came back may answer empty for a moment; the end offset says there is more.
          if (Date.now() > deadline) throw new Error(`reading ${topic}[${partition}]: no records at offset ${position} below the end ${end} within 30 s`);
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        }
        const aborted = [...data.abortedTransactions].sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : 1));
        const abortedProducers = new Set<bigint>();
        for (const batch of batches) {
          const last = batch.firstOffset + BigInt(batch.lastOffsetDelta);
          position = last + 1n;
          if (readCommitted && batch.attributes & IS_TRANSACTIONAL) {
            while (aborted.length > 0 && aborted[0]!.firstOffset <= last) abortedProducers.add(aborted.shift()!.producerId);
            if (isAbortMarker(batch)) abortedProducers.delete(batch.producerId);
            else if (abortedProducers.has(batch.producerId)) continue;
          }
          if (batch.attributes & IS_CONTROL) continue;
          for (const record of batch.records) {
            const offset = batch.firstOffset + BigInt(record.offsetDelta);
            if (offset >= end) break;
            records.push({ partition, offset, key: record.key?.toString() ?? null, value: record.value?.toString() ?? null });
          }
        }
      }
    }
    return records;
  } finally {
    await consumer.close(true);
  }
}

/**
 * The sum over `topic`'s partitions of the offset a read_committed consumer reads up to (the
 * last stable offset). It counts transaction markers too, so it is at least the number of
 * committed records: a cheap "could it be there yet?" before a `readTopic`.
 */
export async function committedEndOffsets(bootstrapServers: string, topic: string): Promise<bigint> {
  const consumer = new Consumer({ clientId: 'weir-test-offsets', groupId: `weir-test-reader-${process.pid}`, bootstrapBrokers: [bootstrapServers], retries: 5 });
  try {
    const ends = (await consumer.listOffsets({ topics: [topic], timestamp: -1n, isolationLevel: FetchIsolationLevels.READ_COMMITTED })).get(topic)!;
    return ends.reduce((sum, end) => sum + end, 0n);
  } finally {
    await consumer.close(true);
  }
}

/**
 * Has the broker set up its transaction coordinator: the first InitProducerId of a
 * transactional id on a new cluster creates the transaction state topic, which takes about a
 * second. A benchmark calls this first, so what it measures is the job and not the cluster's
 * one-time setup (a long-running cluster has done it long ago).
 */
export async function initTransactionCoordinator(bootstrapServers: string): Promise<void> {
  const producer = new Producer({
    clientId: 'weir-test-transactions',
    bootstrapBrokers: [bootstrapServers],
    idempotent: true,
    transactionalId: `weir-test-init-${process.pid}`,
    producerId: -1n,
    producerEpoch: -1,
    retries: 5,
  });
  try {
    // Begins no transaction on the broker: that takes a first record.
    await producer.beginTransaction();
  } finally {
    await producer.close();
  }
}

/** A control batch whose marker is ABORT (control record key: version int16, type int16; 0 = abort). */
function isAbortMarker(batch: RecordsBatch): boolean {
  return (batch.attributes & IS_CONTROL) !== 0 && batch.records[0]?.key?.readInt16BE(2) === 0;
}

/**
 * Creates `topic` with `partitions` partitions and replication factor 1 on any reachable
 * cluster (a `KafkaBroker`'s, or one in Docker that a test only knows the address of).
 */
export async function createTopic(bootstrapServers: string, topic: string, partitions: number, configs: Readonly<Record<string, string>> = {}): Promise<void> {
  const admin = new Admin({ clientId: 'weir-test-admin', bootstrapBrokers: [bootstrapServers], retries: 5, retryDelay: 200 });
  try {
    await admin.createTopics({ topics: [topic], partitions, replicas: 1, configs: Object.entries(configs).map(([name, value]) => ({ name, value })) });
  } finally {
    await admin.close();
  }
}
