import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { javaAvailable, KafkaBroker, produceValues, readTopic } from '@weir/kafka-broker';

describe.skipIf(!javaAvailable())('the Kafka broker harness (Apache Kafka, KRaft, one node)', () => {
  let broker: KafkaBroker;

  beforeAll(async () => {
    const started = Date.now();
    broker = await KafkaBroker.start();
    console.log(`Kafka broker up in ${Date.now() - started} ms on ${broker.bootstrapServers}`);
  });

  afterAll(async () => {
    await broker?.destroy();
  });

  it('creates topics, adds partitions, and keeps the data across a SIGKILL and a restart on the same ports', async () => {
    await broker.createTopic('numbers', 2);
    await produceValues(broker.bootstrapServers, 'numbers', Array.from({ length: 10 }, (_, i) => ({ value: `n${i}`, partition: i % 2 })));
    await broker.addPartitions('numbers', 3);
    await produceValues(broker.bootstrapServers, 'numbers', [{ value: 'in-new-partition', partition: 2 }]);

    const pid = broker.pid;
    await broker.kill();
    expect(broker.running).toBe(false);
    await broker.restart();
    expect(broker.pid).not.toBe(pid);

    const records = await readTopic(broker.bootstrapServers, 'numbers');
    expect(records.filter((r) => r.partition === 0).map((r) => r.value)).toEqual(['n0', 'n2', 'n4', 'n6', 'n8']);
    expect(records.filter((r) => r.partition === 1).map((r) => r.value)).toEqual(['n1', 'n3', 'n5', 'n7', 'n9']);
    expect(records.filter((r) => r.partition === 2).map((r) => r.value)).toEqual(['in-new-partition']);
  });
});
