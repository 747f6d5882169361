import type { MessageToProduce } from '@platformatic/kafka';
import type { KafkaClientSettings } from './kafka-client.ts';
import { kafkaLibrary } from './kafka-library.ts';

/** What a KafkaWriter uses of a @platformatic/kafka Producer. */
export interface SinkProducer {
  /** Known once the producer was initialized (its first send, or `beginTransaction`). */
  readonly producerId: bigint | undefined;
  readonly producerEpoch: number | undefined;
  /** InitProducerId for the producer's transactional id; resolves with the transaction to send into. */
  beginTransaction(): Promise<{ send(options: { messages: MessageToProduce[] }): Promise<unknown> }>;
  send(options: { messages: MessageToProduce[] }): Promise<unknown>;
  close(): Promise<void>;
}

/** Makes a KafkaWriter's producers (a test passes its own). */
export interface SinkProducers {
  /** EXACTLY_ONCE: a producer for one transactional id. */
  transactional(transactionalId: string): SinkProducer;
  /** NONE (acks from the leader) and AT_LEAST_ONCE (idempotent, acks from all replicas). */
  plain(idempotent: boolean): SinkProducer;
}

/** The producer's retries back off from 100 ms to this. */
const MAX_RETRY_DELAY_MS = 1_000;

/**
 * The real ones, on the brokers of `settings`. A send the cluster does not take (refused
 * connections while a broker restarts, say) is retried by the producer itself for about
 * `deliveryTimeoutMs`: its retries resend the same batches with the same sequence numbers, so
 * a request that did reach the broker is not written twice (the broker drops the duplicate).
 */
export function kafkaSinkProducers(settings: KafkaClientSettings, subtask: number, transactionTimeoutMs: number, deliveryTimeoutMs: number): SinkProducers {
  const common = {
    clientId: `${settings.clientId}-${subtask}`,
    bootstrapBrokers: [...settings.bootstrapServers],
    retries: Math.max(3, Math.ceil(deliveryTimeoutMs / MAX_RETRY_DELAY_MS)),
    retryDelay: (_client: unknown, _operation: string, attempt: number) => Math.min(MAX_RETRY_DELAY_MS, 100 * 2 ** (attempt - 1)),
  };
  return {
    transactional: (transactionalId) =>
      new (kafkaLibrary().Producer)({
        ...common,
        idempotent: true,
        transactionalId,
        // The library sends this as InitProducerId's transaction timeout (and as produce's ack timeout).
        timeout: transactionTimeoutMs,
        // -1/-1: a fresh InitProducerId for this id (the library's default of 0/0 is refused as fenced once the id was used).
        producerId: -1n,
        producerEpoch: -1,
      }),
    plain: (idempotent) => new (kafkaLibrary().Producer)({ ...common, idempotent, ...(idempotent ? {} : { acks: kafkaLibrary().ProduceAcks.LEADER }) }),
  };
}
