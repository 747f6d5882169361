import { randomBytes } from 'node:crypto';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { kafkaFailure, parseBootstrapServers, type KafkaClientSettings } from './kafka-client.ts';
import { parseTransactionalId, TransactionCoordinatorCalls, type TransactionDescription } from './transactions.ts';

/** An open transaction on the cluster, and where it comes from when a Weir sink opened it. */
export interface OpenTransaction extends TransactionDescription {
  /** A KafkaSink's `<prefix>-<subtask>-<checkpoint>`: the checkpoint after which its subtask opened it. */
  readonly sink?: { readonly prefix: string; readonly subtask: number; readonly checkpointId: number };
}

/** How long a call retries a cluster that does not answer: a person is waiting. */
const PATIENCE_MS = 10_000;

/**
 * Lists the open transactions of a Kafka cluster and ends one on request: what `weir kafka
 * transactions` does for a job that died and was never restarted, whose lingering
 * transaction keeps every read_committed consumer of its partitions from reading on until the
 * broker's transaction timeout (15 minutes by default) aborts it.
 */
export class KafkaTransactionsAdmin {
  readonly #settings: KafkaClientSettings;
  readonly #calls: TransactionCoordinatorCalls;

  constructor(bootstrapServers: string) {
    this.#settings = { bootstrapServers: parseBootstrapServers(bootstrapServers), clientId: `weir-transactions-${randomBytes(3).toString('hex')}` };
    this.#calls = new TransactionCoordinatorCalls(this.#settings, PATIENCE_MS);
  }

  /** Open transactions, oldest first; with `prefix`, only a sink's with that transactional id prefix. */
  async listOpen(prefix?: string): Promise<OpenTransaction[]> {
    try {
      const ids = await this.#calls.openTransactionalIds();
      const open: OpenTransaction[] = [];
      for (const id of ids) {
        const sink = sinkOf(id, prefix);
        if (prefix !== undefined && sink === undefined) continue;
        const description = await this.#calls.describe(id);
        if (!isOpen(description)) continue;
        open.push({ ...description, ...(sink === undefined ? {} : { sink }) });
      }
      return open.sort((a, b) => a.startTimeMs - b.startTimeMs);
    } catch (err) {
      throw kafkaFailure(err, this.#settings, 'listing open transactions');
    }
  }

  /** Aborts the id's open transaction (InitProducerId fences its producer and aborts what it wrote); returns what it was. */
  async abort(transactionalId: string): Promise<TransactionDescription> {
    const description = await this.#requireOpen(transactionalId);
    try {
      await this.#calls.abort(transactionalId, description.timeoutMs);
    } catch (err) {
      throw kafkaFailure(err, this.#settings, `aborting ${transactionalId}`);
    }
    return description;
  }

  /**
   * Commits the id's open transaction with its producer and epoch, as the sink's committer would
   * have. Only right for a transaction whose checkpoint completed: one opened after the last
   * completed checkpoint holds records the job will write again when it restores.
   */
  async commit(transactionalId: string): Promise<TransactionDescription> {
    const description = await this.#requireOpen(transactionalId);
    try {
      await this.#calls.commit({ transactionalId, producerId: description.producerId, epoch: description.epoch });
    } catch (err) {
      throw kafkaFailure(err, this.#settings, `committing ${transactionalId}`);
    }
    return description;
  }

  /** Closes the admin's connections. */
  async close(): Promise<void> {
    await this.#calls.close();
  }

  async #requireOpen(transactionalId: string): Promise<TransactionDescription> {
    let description: TransactionDescription;
    try {
      description = await this.#calls.describe(transactionalId);
    } catch (err) {
      throw kafkaFailure(err, this.#settings, `describing ${transactionalId}`);
    }
    if (!isOpen(description)) {
      throw new WeirError(
        ConnectorErrorCode.INVALID_ARGUMENT,
        `transactional id '${transactionalId}' has no open transaction (its state is ${description.state}); \`weir kafka transactions ${this.#settings.bootstrapServers.join(',')}\` lists the open ones`,
      );
    }
    return description;
  }
}

/** Ongoing, or ended by its producer but not yet written out by the coordinator. */
function isOpen(description: TransactionDescription): boolean {
  return /^(ongoing|prepare_?commit|prepare_?abort)$/i.test(description.state);
}

/** The sink id parts: with a prefix, only its own ids; without, any id shaped `<prefix>-<subtask>-<checkpoint>`. */
function sinkOf(id: string, prefix: string | undefined): OpenTransaction['sink'] {
  if (prefix !== undefined) {
    const parsed = parseTransactionalId(prefix, id);
    return parsed === undefined ? undefined : { prefix, ...parsed };
  }
  const match = /^(.+)-(\d+)-(\d+)$/.exec(id);
  return match === null ? undefined : { prefix: match[1]!, subtask: Number(match[2]), checkpointId: Number(match[3]) };
}
