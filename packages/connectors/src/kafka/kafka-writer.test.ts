import type { MessageToProduce } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { KafkaRecordSerializationSchema } from './kafka-record-serialization-schema.ts';
import { DeliveryGuarantee, KafkaWriter } from './kafka-writer.ts';
import { SimpleStringSchema } from './schemas.ts';
import type { SinkProducer, SinkProducers } from './sink-producers.ts';

/** Producers that record what the writer does with them; a transactional id's InitProducerId answers at once unless held. */
class FakeProducers implements SinkProducers {
  readonly made: FakeProducer[] = [];
  hold = false;
  refuseInit: Error | undefined;

  transactional(transactionalId: string): FakeProducer {
    const producer = new FakeProducer(transactionalId, this.made.length + 1, this.hold, this.refuseInit);
    this.made.push(producer);
    return producer;
  }

  plain(): FakeProducer {
    return this.transactional('');
  }

  ids(): string[] {
    return this.made.map((p) => p.transactionalId);
  }
}

class FakeProducer implements SinkProducer {
  producerId: bigint | undefined;
  producerEpoch: number | undefined;
  readonly sent: string[] = [];
  begun = false;
  closed = false;
  #release: () => void = () => {};
  readonly #initialized: Promise<void>;

  constructor(
    readonly transactionalId: string,
    private readonly id: number,
    held: boolean,
    private readonly refuseInit: Error | undefined,
  ) {
    this.#initialized = held ? new Promise((resolve) => (this.#release = resolve)) : Promise.resolve();
  }

  release(): void {
    this.#release();
  }

  async beginTransaction(): Promise<{ send(options: { messages: MessageToProduce[] }): Promise<unknown> }> {
    await this.#initialized;
    if (this.closed) throw new Error('Client is closed.');
    if (this.refuseInit !== undefined) throw this.refuseInit;
    this.begun = true;
    this.producerId = BigInt(this.id);
    this.producerEpoch = 0;
    return { send: (options) => this.send(options) };
  }

  async send({ messages }: { messages: MessageToProduce[] }): Promise<unknown> {
    this.sent.push(...messages.map((m) => String(m.value)));
    return {};
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function writer(producers: FakeProducers, lastCheckpointId = 0, guarantee: DeliveryGuarantee = DeliveryGuarantee.EXACTLY_ONCE): KafkaWriter<string> {
  return new KafkaWriter<string>({ ...writerOptions(producers, guarantee), lastCheckpointId });
}

function writerOptions(producers: FakeProducers, guarantee: DeliveryGuarantee) {
  return {
    settings: { bootstrapServers: ['127.0.0.1:9092'], clientId: 'test' },
    serializer: KafkaRecordSerializationSchema.builder<string>().setTopic('out').setValueSerializationSchema(new SimpleStringSchema()).build(),
    guarantee,
    transactionalIdPrefix: 'job',
    transactionTimeoutMs: 60_000,
    deliveryTimeoutMs: 120_000,
    subtask: 1,
    lastCheckpointId: 0,
    producers,
  };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('KafkaWriter (EXACTLY_ONCE)', () => {
  it('begins the first transaction when it starts, named after the checkpoint it restored', () => {
    const producers = new FakeProducers();
    writer(producers, 7);
    expect(producers.ids()).toEqual(['job-1-8']);
  });

  it('hands over the transaction of an interval with records, and begins the next one at once', async () => {
    const producers = new FakeProducers();
    const w = writer(producers);
    await w.write('a');
    await w.write('b');
    const committables = await w.prepareCommit(1);
    expect(committables).toEqual([{ transactionalId: 'job-1-1', producerId: '1', epoch: 0 }]);
    const [first, second] = producers.made;
    expect(first!.sent).toEqual(['a', 'b']);
    // Left open for the committer: closing the producer does not end the transaction.
    expect(first!.closed).toBe(true);
    expect(second!.transactionalId).toBe('job-1-2');
    await w.write('c');
    expect(await w.prepareCommit(2)).toEqual([{ transactionalId: 'job-1-2', producerId: '2', epoch: 0 }]);
    expect(second!.sent).toEqual(['c']);
  });

  it('after an idle interval begins the next transaction on its first record, named after the checkpoint before it even if that is sent at the barrier', async () => {
    const producers = new FakeProducers();
    const w = writer(producers);
    expect(await w.prepareCommit(1)).toEqual([]);
    expect(producers.made[0]!.closed).toBe(true);
    expect(await w.prepareCommit(2)).toEqual([]);
    expect(producers.ids()).toEqual(['job-1-1']);
    await w.write('late');
    expect(await w.prepareCommit(3)).toEqual([{ transactionalId: 'job-1-3', producerId: '2', epoch: 0 }]);
    expect(producers.ids()).toEqual(['job-1-1', 'job-1-3', 'job-1-4']);
  });

  it('begins nothing ahead after the end of input', async () => {
    const producers = new FakeProducers();
    const w = writer(producers);
    await w.write('last');
    await w.flush(true);
    expect(await w.prepareCommit(1)).toHaveLength(1);
    expect(producers.ids()).toEqual(['job-1-1']);
  });

  it('records written before the transaction is begun wait for it', async () => {
    const producers = new FakeProducers();
    producers.hold = true;
    const w = writer(producers);
    await w.write('early');
    const preparing = w.prepareCommit(1);
    await settle();
    expect(producers.made[0]!.sent).toEqual([]);
    producers.made[0]!.release();
    expect(await preparing).toEqual([{ transactionalId: 'job-1-1', producerId: '1', epoch: 0 }]);
    expect(producers.made[0]!.sent).toEqual(['early']);
  });

  it('a transaction that cannot be begun fails the checkpoint with the cause (and nothing else: it was begun ahead)', async () => {
    const producers = new FakeProducers();
    producers.refuseInit = Object.assign(new Error('the transaction timeout is larger than the maximum'), { apiId: 'INVALID_TRANSACTION_TIMEOUT' });
    const w = writer(producers);
    await settle();
    await w.write('a');
    const failure = await w.prepareCommit(1).catch((err: unknown) => err);
    expect(isWeirError(failure) && failure.code === ConnectorErrorCode.KAFKA_TRANSACTION_TIMEOUT_TOO_LONG).toBe(true);
    expect(() => w.write('b')).toThrow(/transaction.timeout.ms/);
  });

  it('close closes a transaction being begun without waiting for it', async () => {
    const producers = new FakeProducers();
    producers.hold = true;
    const w = writer(producers);
    await w.close();
    expect(producers.made[0]!.closed).toBe(true);
  });
});

describe('KafkaWriter (AT_LEAST_ONCE)', () => {
  it('uses one producer, and flush waits for every record', async () => {
    const producers = new FakeProducers();
    const w = writer(producers, 0, DeliveryGuarantee.AT_LEAST_ONCE);
    await w.write('x');
    await w.write('y');
    await w.flush(false);
    expect(producers.made).toHaveLength(1);
    expect(producers.made[0]!.sent).toEqual(['x', 'y']);
    expect(await w.prepareCommit(1)).toEqual([]);
  });

  it('sends the records without key or partition of one request to one partition, those of the next one to the next (sticky partitioning)', async () => {
    const producers = new FakeProducers();
    const serializer = { serialize: (s: string) => ({ topic: 'out', value: Buffer.from(s), ...(s === 'pinned' ? { partition: 7 } : {}) }) };
    const w = new KafkaWriter<string>({ ...writerOptions(producers, DeliveryGuarantee.AT_LEAST_ONCE), serializer });
    const partitions: (number | undefined)[][] = [];
    await w.write('a');
    await w.flush(false);
    producers.made[0]!.send = async ({ messages }) => void partitions.push(messages.map((m) => m.partition));
    await w.write('b');
    await w.write('pinned');
    await w.write('c');
    await w.flush(false);
    await w.write('d');
    await w.flush(false);
    expect(partitions).toEqual([
      [2, 7, 2],
      [3],
    ]);
  });

  it('a refused send fails the next write with a KafkaSink error', async () => {
    const producers = new FakeProducers();
    const w = writer(producers, 0, DeliveryGuarantee.AT_LEAST_ONCE);
    await w.write('x');
    await w.flush(false);
    producers.made[0]!.send = () => Promise.reject(Object.assign(new Error('Unknown topic or partition'), { apiId: 'UNKNOWN_TOPIC_OR_PARTITION' }));
    await w.write('y');
    const failure = await w.flush(false).catch((err: unknown) => err);
    expect(isWeirError(failure) && failure.code === ConnectorErrorCode.KAFKA_TOPIC_NOT_FOUND).toBe(true);
    expect(() => w.write('z')).toThrow(/does not exist/);
  });
});
