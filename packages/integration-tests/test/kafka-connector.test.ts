import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SplitSourceHarness } from '@weir/api/testing';
import { isWeirError } from '@weir/common';
import {
  DeliveryGuarantee,
  KafkaRecordSerializationSchema,
  KafkaSink,
  KafkaSource,
  OffsetsInitializer,
  SimpleStringSchema,
  type KafkaCommittable,
} from '@weir/connectors';
import { freePort } from '@weir/common';
import { javaAvailable, KafkaBroker, produceValues, readTopic } from '@weir/kafka-broker';

const context = (subtaskIndex: number, parallelism: number) => ({ jobId: 'job', subtaskIndex, parallelism, attemptNumber: 0 });

/**
 * The Kafka connector's parts against a real broker, in this process: the client can do what
 * an exactly-once sink needs (commit a flushed transaction from a new connection by id,
 * producer id and epoch; abort lingering transactions of a prefix; read_committed reads), and
 * the source reads, snapshots and restores partitions at another parallelism, discovers new
 * partitions and names what it cannot read.
 */
describe.skipIf(!javaAvailable())('the Kafka connector against a real broker', () => {
  let broker: KafkaBroker;

  beforeAll(async () => {
    broker = await KafkaBroker.start();
  });

  afterAll(async () => {
    await broker?.destroy();
  });

  function sink(topic: string, prefix: string) {
    return KafkaSink.builder<string>()
      .setBootstrapServers(broker.bootstrapServers)
      .setRecordSerializer(KafkaRecordSerializationSchema.builder<string>().setTopic(topic).setValueSerializationSchema(new SimpleStringSchema()).build())
      .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
      .setTransactionalIdPrefix(prefix)
      .build();
  }

  it('commits a flushed transaction from a new committer by id, producer id and epoch, idempotently, and aborts what no checkpoint promised', async () => {
    await broker.createTopic('tx-out', 2);
    const first = sink('tx-out', 'proof');
    const writer = await first.createWriter(context(0, 1));
    for (let i = 0; i < 10; i++) await writer.write(`a${i}`);
    await writer.flush(false);
    const committables = (await writer.prepareCommit(1)) as KafkaCommittable[];
    expect(committables).toHaveLength(1);
    expect(committables[0]!.transactionalId).toBe('proof-0-1');
    expect(await readTopic(broker.bootstrapServers, 'tx-out')).toEqual([]);
    // Records of the next checkpoint, never pre-committed: the "crash" leaves them open.
    for (let i = 0; i < 5; i++) await writer.write(`b${i}`);
    await writer.flush(false);
    const checkpointState = writer.snapshotState(1);

    // After the "crash": a new sink instance (as a restored task builds it) commits, twice.
    const restored = sink('tx-out', 'proof');
    await restored.createCommitter().commit(committables);
    await restored.createCommitter().commit(committables);
    const afterRestore = await restored.createWriter(context(0, 1), [checkpointState]);
    const committed = (await readTopic(broker.bootstrapServers, 'tx-out')).map((r) => r.value).sort();
    expect(committed).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`).sort());
    expect((await readTopic(broker.bootstrapServers, 'tx-out', false)).length).toBe(15);
    await afterRestore.close();
    await writer.close();
  });

  it('fails the commit with a message naming a shared transactional id prefix when another sink of the prefix started', async () => {
    await broker.createTopic('shared-out', 1);
    const writer = await sink('shared-out', 'shared').createWriter(context(0, 1));
    for (let i = 0; i < 10; i++) await writer.write(`x${i}`);
    const committables = (await writer.prepareCommit(1)) as KafkaCommittable[];
    // A second job with the same prefix starts fresh: it aborts every open transaction of the prefix it would own.
    const other = await sink('shared-out', 'shared').createWriter(context(0, 1));
    const err = await sink('shared-out', 'shared')
      .createCommitter()
      .commit(committables)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isWeirError(err, 'KAFKA_TRANSACTION_ABORTED')).toBe(true);
    expect((err as Error).message).toContain("another job or sink uses the same transactional id prefix and took the id over on its start (give each its own setTransactionalIdPrefix)");
    expect(await readTopic(broker.bootstrapServers, 'shared-out')).toEqual([]);
    await other.close();
    await writer.close();
  });

  it('keeps the batches of one transaction in order when many are in flight, and commits every record', async () => {
    await broker.createTopic('tx-many', 2);
    const writer = await sink('tx-many', 'many').createWriter(context(0, 1));
    const count = 20_000;
    // No await between writes beyond what the writer asks for: batches queue up behind each other.
    for (let i = 0; i < count; i++) await writer.write(String(i));
    const committables = (await writer.prepareCommit(1)) as KafkaCommittable[];
    await sink('tx-many', 'many').createCommitter().commit(committables);
    // The broker writes the commit markers after EndTxn answered: wait for the last stable offset to move.
    let values: number[] = [];
    for (const deadline = Date.now() + 10_000; values.length < count && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      values = (await readTopic(broker.bootstrapServers, 'tx-many')).map((r) => Number(r.value));
    }
    expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
    await writer.close();
  });

  it('reads every partition exactly once across a snapshot restored at another parallelism, and discovers partitions added later', async () => {
    await broker.createTopic('numbers', 4);
    await produceValues(broker.bootstrapServers, 'numbers', Array.from({ length: 400 }, (_, i) => ({ value: String(i), partition: i % 4 })));
    const source = () =>
      KafkaSource.builder<string>()
        .setBootstrapServers(broker.bootstrapServers)
        .setTopics('numbers')
        .setStartingOffsets(OffsetsInitializer.earliest())
        .setValueOnlyDeserializer(new SimpleStringSchema())
        .setProperty('partition.discovery.interval.ms', '100')
        .build();
    const first = await SplitSourceHarness.start(source(), 2);
    const before = [...(await first.poll(0, 50, 10_000)), ...(await first.poll(1, 70, 10_000))];
    expect(before).toHaveLength(120);
    const snapshot = first.snapshot(1);
    await first.close();

    const second = await SplitSourceHarness.start(source(), 3, snapshot);
    const after = (await Promise.all(second.readers.map((_, i) => second.poll(i, Number.POSITIVE_INFINITY, 3_000)))).flat();
    expect([...before, ...after].map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 400 }, (_, i) => i));

    await broker.addPartitions('numbers', 6);
    await produceValues(broker.bootstrapServers, 'numbers', [{ value: 'p4', partition: 4 }, { value: 'p5', partition: 5 }]);
    await second.runAsyncWork();
    expect((await Promise.all(second.readers.map((_, i) => second.poll(i, Number.POSITIVE_INFINITY, 3_000)))).flat().sort()).toEqual(['p4', 'p5']);
    await second.close();
  });

  it('names the topic, partition and offset of a record it cannot deserialize, or skips it when told to', async () => {
    await broker.createTopic('json-in', 1);
    await produceValues(broker.bootstrapServers, 'json-in', [{ value: '{"n":1}' }, { value: 'not json' }, { value: '{"n":3}' }]);
    const build = (skip: boolean) =>
      KafkaSource.builder<{ n: number }>()
        .setBootstrapServers(broker.bootstrapServers)
        .setTopics('json-in')
        .setBounded(OffsetsInitializer.latest())
        .setValueOnlyDeserializer({ deserialize: (bytes) => JSON.parse(Buffer.from(bytes).toString('utf8')) as { n: number } })
        .setSkipUndeserializableRecords(skip)
        .build();
    const failing = await SplitSourceHarness.start(build(false), 1);
    const err = await failing.poll(0).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isWeirError(err, 'KAFKA_DESERIALIZATION_FAILED')).toBe(true);
    expect((err as Error).message).toMatch(/^cannot deserialize the Kafka record at topic json-in partition 0 offset 1: .*setSkipUndeserializableRecords\(true\)$/);
    await failing.close();
    const skipping = await SplitSourceHarness.start(build(true), 1);
    expect(await skipping.poll(0)).toEqual([{ n: 1 }, { n: 3 }]);
    await skipping.close();
  });

  it('says which address and which setting when no broker answers, and which topic is missing', async () => {
    const port = await freePort();
    const unreachable = KafkaSource.builder<string>().setBootstrapServers(`127.0.0.1:${port}`).setTopics('x').setValueOnlyDeserializer(new SimpleStringSchema()).build();
    const err = await SplitSourceHarness.start(unreachable, 1).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isWeirError(err, 'KAFKA_UNREACHABLE')).toBe(true);
    expect((err as Error).message).toContain(`cannot reach the Kafka cluster at 127.0.0.1:${port} (bootstrap.servers, setBootstrapServers)`);
    const missing = KafkaSource.builder<string>().setBootstrapServers(broker.bootstrapServers).setTopics('no-such-topic').setValueOnlyDeserializer(new SimpleStringSchema()).build();
    const err2 = await SplitSourceHarness.start(missing, 1).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isWeirError(err2, 'KAFKA_TOPIC_NOT_FOUND')).toBe(true);
    expect((err2 as Error).message).toBe(`topic 'no-such-topic' does not exist on the Kafka cluster at ${broker.bootstrapServers}; create it first (or fix setTopics)`);
  });

  it('refuses at submission a transaction timeout no longer than the checkpoint interval', () => {
    const tight = KafkaSink.builder<string>()
      .setBootstrapServers(broker.bootstrapServers)
      .setRecordSerializer(KafkaRecordSerializationSchema.builder<string>().setTopic('t').setValueSerializationSchema(new SimpleStringSchema()).build())
      .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
      .setTransactionalIdPrefix('tight')
      .setProperty('transaction.timeout.ms', '1000')
      .build();
    expect(() => tight.validate({ checkpointing: { intervalMs: 5_000 } })).toThrow(/transaction.timeout.ms \(1000 ms\) is not longer than the checkpoint interval \(5000 ms\)/);
  });
});
