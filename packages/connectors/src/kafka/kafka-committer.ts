import type { Committer } from '@weir/api';
import { createLogger, WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { describeKafkaError, kafkaErrorIds, kafkaFailure, type KafkaClientSettings } from './kafka-client.ts';
import { TransactionCoordinatorCalls, type KafkaCommittable } from './transactions.ts';

/**
 * Commits the transactions completed checkpoints promised (Flink's KafkaCommitter), by
 * transactional id, producer id and epoch, on connections kept from one commit to the next
 * (the task waits for every commit, and new connections each time cost more than the commit
 * itself, every checkpoint); committing one that is already
 * committed succeeds, so a restore may commit again. A transaction the broker aborted (its
 * transaction.timeout.ms passed, or another job of the same transactional id prefix aborted
 * it as lingering on its start) cannot be committed any more: the job fails with
 * KAFKA_TRANSACTION_ABORTED, since its records are gone and no restart brings them back.
 */
export class KafkaCommitter implements Committer<KafkaCommittable> {
  readonly #logger = createLogger('kafka-committer');
  #calls: TransactionCoordinatorCalls | undefined;

  constructor(
    private readonly settings: KafkaClientSettings,
    private readonly transactionTimeoutMs: number,
    /** How long a commit retries a cluster it cannot reach before the task fails. */
    private readonly deliveryTimeoutMs: number,
  ) {}

  async commit(committables: readonly KafkaCommittable[]): Promise<void> {
    if (committables.length === 0) return;
    // Test hook (not a WEIR_ variable, which would be read as a config key): widens the window between a completed checkpoint and its commit.
    const delayMs = Number(process.env['TEST_KAFKA_COMMIT_DELAY_MS'] ?? 0);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const calls = (this.#calls ??= new TransactionCoordinatorCalls(this.settings, this.deliveryTimeoutMs));
    for (const committable of committables) {
      try {
        await calls.commit(requireCommittable(committable));
      } catch (err) {
        // Its connections may be broken: the next commit (after a restart) starts on new ones.
        await this.close();
        throw this.#failure(err, committable);
      }
      this.#logger.debug({ transactionalId: committable.transactionalId }, 'transaction committed');
    }
  }

  async close(): Promise<void> {
    const calls = this.#calls;
    this.#calls = undefined;
    await calls?.close();
  }

  #failure(err: unknown, committable: KafkaCommittable): WeirError {
    if (err instanceof WeirError) return err;
    const ids = kafkaErrorIds(err);
    if (ids.has('PRODUCER_FENCED') || ids.has('INVALID_PRODUCER_EPOCH') || ids.has('INVALID_TXN_STATE') || ids.has('INVALID_PRODUCER_ID_MAPPING')) {
      return new WeirError(
        ConnectorErrorCode.KAFKA_TRANSACTION_ABORTED,
        `cannot commit Kafka transaction ${committable.transactionalId} (producer id ${committable.producerId}, epoch ${committable.epoch}) that a completed checkpoint promised: ` +
          `the broker aborted it, either because another job or sink uses the same transactional id prefix and took the id over on its start (give each its own setTransactionalIdPrefix), ` +
          `or because transaction.timeout.ms (${this.transactionTimeoutMs} ms) passed before the checkpoint completed and the commit reached the broker (raise it, up to the broker's transaction.max.timeout.ms, well above the checkpoint interval plus the time a recovery takes); ` +
          `its records are lost (${describeKafkaError(err)})`,
        { cause: err },
      );
    }
    return kafkaFailure(err, this.settings, `committing transaction ${committable.transactionalId}`);
  }
}

function requireCommittable(value: unknown): KafkaCommittable {
  const { transactionalId, producerId, epoch } = (value ?? {}) as Partial<KafkaCommittable>;
  if (typeof transactionalId !== 'string' || typeof producerId !== 'string' || !/^\d+$/.test(producerId) || typeof epoch !== 'number' || !Number.isInteger(epoch)) {
    throw new WeirError(ConnectorErrorCode.INVALID_RESTORED_STATE, `a KafkaSink committable is { transactionalId, producerId, epoch }, got ${JSON.stringify(value)}`);
  }
  return { transactionalId, producerId, epoch };
}
