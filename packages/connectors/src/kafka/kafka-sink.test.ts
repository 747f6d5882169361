import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { KafkaRecordSerializationSchema } from './kafka-record-serialization-schema.ts';
import { KafkaSink } from './kafka-sink.ts';
import { DeliveryGuarantee } from './kafka-writer.ts';
import { SimpleStringSchema } from './schemas.ts';

const sink = (guarantee: DeliveryGuarantee, servers = 'b:9092,a:9092') =>
  KafkaSink.builder<string>()
    .setBootstrapServers(servers)
    .setRecordSerializer(KafkaRecordSerializationSchema.builder<string>().setTopic('out').setValueSerializationSchema(new SimpleStringSchema()).build())
    .setDeliveryGuarantee(guarantee)
    .setTransactionalIdPrefix('orders')
    .build();

describe('KafkaSink', () => {
  it('claims its transactional id prefix on its cluster when EXACTLY_ONCE, however the servers are listed', () => {
    expect(sink(DeliveryGuarantee.EXACTLY_ONCE).exclusiveResources()).toEqual([
      { kind: 'kafka.transactional-id-prefix', scope: 'a:9092,b:9092', name: 'orders', description: "Kafka transactional.id prefix 'orders' on a:9092,b:9092" },
    ]);
    expect(sink(DeliveryGuarantee.EXACTLY_ONCE, 'a:9092,b:9092').exclusiveResources()).toEqual(sink(DeliveryGuarantee.EXACTLY_ONCE).exclusiveResources());
  });

  it('claims nothing without transactions', () => {
    expect(sink(DeliveryGuarantee.AT_LEAST_ONCE).exclusiveResources()).toEqual([]);
  });

  it('takes linger.ms (20 by default, 0 allowed) for its writers', () => {
    expect(sink(DeliveryGuarantee.NONE).config.lingerMs).toBe(20);
    const builder = () => KafkaSink.builder<string>().setBootstrapServers('a:9092').setRecordSerializer(KafkaRecordSerializationSchema.builder<string>().setTopic('out').setValueSerializationSchema(new SimpleStringSchema()).build());
    expect(builder().setProperty('linger.ms', '0').build().config.lingerMs).toBe(0);
    expect(() => builder().setProperty('linger.ms', '-1')).toThrow("linger.ms takes milliseconds >= 0, got '-1'");
  });

  it('refuses an unknown property with the nearest known key', () => {
    expect(() => KafkaSink.builder().setProperty('transaction.timeout', '1000')).toThrow(
      "KafkaSink has no property 'transaction.timeout'; did you mean transaction.timeout.ms? (it knows transaction.timeout.ms, delivery.timeout.ms, linger.ms)",
    );
    expect(() => KafkaSink.builder().setProperty('acks', 'all')).toThrow("KafkaSink has no property 'acks'; it knows transaction.timeout.ms, delivery.timeout.ms, linger.ms");
  });

  it('stops waiting for an unreachable broker when its task is canceled (ConnectorContext.signal), instead of retrying for delivery.timeout.ms', async () => {
    // A canceled attempt that kept retrying would abort, once the broker is back, the
    // transactions the next attempt opened under the same ids (PRODUCER_FENCED at its commit).
    const port = await closedPort();
    const unreachable = KafkaSink.builder<string>()
      .setBootstrapServers(`127.0.0.1:${port}`)
      .setRecordSerializer(KafkaRecordSerializationSchema.builder<string>().setTopic('out').setValueSerializationSchema(new SimpleStringSchema()).build())
      .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
      .setTransactionalIdPrefix('orders')
      .setProperty('delivery.timeout.ms', '600000')
      .build();
    const cancel = new AbortController();
    const creating = unreachable.createWriter({ jobId: 'j', subtaskIndex: 0, parallelism: 1, attemptNumber: 0, signal: cancel.signal });
    setTimeout(() => cancel.abort(new Error('task canceled')), 300);
    await expect(creating).rejects.toThrow('task canceled');
  }, 20_000);
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
