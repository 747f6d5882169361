import type { Admin, Connection } from '@platformatic/kafka';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { createAdmin, isUnreachable, kafkaErrorIds, type KafkaClientSettings } from './kafka-client.ts';
import { kafkaLibrary } from './kafka-library.ts';

/** What a checkpoint promises a KafkaSink will commit: a flushed transaction, resumable from any process (Flink's KafkaCommittable). */
export interface KafkaCommittable {
  readonly transactionalId: string;
  /** The producer's id and epoch, as decimal strings (MessagePack keeps them exact). */
  readonly producerId: string;
  readonly epoch: number;
}

/** What DescribeTransactions says of one transactional id. */
export interface TransactionDescription {
  readonly transactionalId: string;
  /** Kafka's name: Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Empty, Dead. */
  readonly state: string;
  readonly producerId: string;
  readonly epoch: number;
  /** -1 when no transaction is open. */
  readonly startTimeMs: number;
  readonly timeoutMs: number;
  /** `topic[partition,...]` of each topic the open transaction wrote to. */
  readonly topics: readonly string[];
}

/** `<prefix>-<subtask>-<checkpoint>`: the transaction a subtask opened for the checkpoint after `checkpoint - 1`. */
export function transactionalIdOf(prefix: string, subtask: number, checkpointId: number): string {
  return `${prefix}-${subtask}-${checkpointId}`;
}

/** The subtask and checkpoint of one of this prefix's transactional IDs, or undefined for any other ID. */
export function parseTransactionalId(prefix: string, id: string): { subtask: number; checkpointId: number } | undefined {
  if (!id.startsWith(`${prefix}-`)) return undefined;
  const match = /^(\d+)-(\d+)$/.exec(id.slice(prefix.length + 1));
  return match === null ? undefined : { subtask: Number(match[1]), checkpointId: Number(match[2]) };
}

/** Kafka's ConfigResource type of a broker. */
const BROKER_RESOURCE = 4;

/** Kafka errors that mean "try again in a moment" on transaction coordinator calls. */
const RETRIABLE = new Set(['CONCURRENT_TRANSACTIONS', 'COORDINATOR_LOAD_IN_PROGRESS', 'COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR', 'REQUEST_TIMED_OUT']);

/** One coordinator call that has not answered by then is given up and tried again on new connections (a connection to a restarted broker can hang). */
const CALL_TIMEOUT_MS = 10_000;
/** Retries back off up to this. */
const MAX_RETRY_DELAY_MS = 1_000;

/**
 * Transaction coordinator calls on the Kafka protocol directly (what Flink does through
 * FlinkKafkaInternalProducer's reflection): commit a transaction from any process given its
 * id, producer id and epoch, and abort lingering transactions by re-initializing their ids.
 * Resuming by id and epoch works because the client speaks EndTxn v4 and Produce v11: Kafka 4
 * keeps the transaction protocol v1 (one epoch per producer session, KIP-890 part 2 off) for
 * such clients, whatever transaction.version the cluster finalized.
 */
export class TransactionCoordinatorCalls {
  #admin: Admin;
  /** Connections to transaction coordinators by host:port, kept for the next call (a committer makes one every checkpoint). */
  readonly #coordinators = new Map<string, Promise<Connection>>();

  constructor(
    private readonly settings: KafkaClientSettings,
    /**
     * How long a call keeps retrying a cluster that does not answer or answers "try again"
     * (a broker restarting, a coordinator loading) before it fails, and its task with it.
     */
    private readonly patienceMs: number,
    /**
     * Ends the retries when aborted (the task was canceled): a canceled attempt's InitProducerId,
     * retried until a restarted broker answers, would fence the transaction the next attempt
     * opened under the same id.
     */
    private readonly signal?: AbortSignal,
  ) {
    this.#admin = createAdmin(settings);
  }

  async close(): Promise<void> {
    const connections = [...this.#coordinators.values()];
    this.#coordinators.clear();
    await this.#admin.close().catch(() => {});
    for (const connecting of connections) await connecting.then((c) => c.close()).catch(() => {});
  }

  /** EndTxn(commit) for the committable; committing an already committed transaction again succeeds, so this is idempotent. */
  async commit(committable: KafkaCommittable): Promise<void> {
    await this.#withCoordinator(committable.transactionalId, (connection) =>
      kafkaLibrary().endTxnV4.api.async(connection, committable.transactionalId, BigInt(committable.producerId), committable.epoch, true).then(() => undefined),
    );
  }

  /** InitProducerId for `transactionalId`: the broker aborts its open transaction, if any, and fences whoever held it. */
  async abort(transactionalId: string, timeoutMs: number): Promise<void> {
    await this.#withCoordinator(transactionalId, (connection) => kafkaLibrary().initProducerIdV5.api.async(connection, transactionalId, timeoutMs, -1n, -1).then(() => undefined));
  }

  /** The broker's transaction.max.timeout.ms (asked of one broker: the setting is the cluster's), or undefined when it does not say; retried like the other calls. */
  async maxTransactionTimeoutMs(): Promise<number | undefined> {
    return this.#patiently(async () => {
      const metadata = await this.#admin.metadata({ topics: [] });
      const [brokerId] = metadata.brokers.keys();
      if (brokerId === undefined) return undefined;
      const [description] = await this.#admin.describeConfigs({
        resources: [{ resourceType: BROKER_RESOURCE, resourceName: String(brokerId), configurationKeys: ['transaction.max.timeout.ms'] }],
      });
      const value = description?.configs.find((c) => c.name === 'transaction.max.timeout.ms')?.value;
      return value === null || value === undefined ? undefined : Number(value);
    });
  }

  /** DescribeTransactions at the id's coordinator: its state, producer, epoch, start time and timeout, and the partitions it wrote. */
  async describe(transactionalId: string): Promise<TransactionDescription> {
    const response = await this.#withCoordinator(transactionalId, (connection) => kafkaLibrary().describeTransactionsV0.api.async(connection, [transactionalId]));
    const state = response.transactionStates[0];
    if (state === undefined) throw new WeirError(ConnectorErrorCode.KAFKA_ERROR, `the coordinator of ${transactionalId} described no transaction`);
    return {
      transactionalId,
      state: state.transactionState,
      producerId: String(state.producerId),
      epoch: state.producerEpoch,
      startTimeMs: Number(state.transactionStartTimeMs),
      timeoutMs: state.transactionTimeoutMs,
      topics: state.topics.map((t) => `${t.topic}[${t.partitions.join(',')}]`),
    };
  }

  /**
   * The transactional IDs with an open transaction (ongoing, or being committed or aborted), on
   * every broker; retried like the coordinator calls (a fresh broker answers
   * COORDINATOR_LOAD_IN_PROGRESS until its transaction state is loaded).
   */
  openTransactionalIds(): Promise<string[]> {
    return this.#patiently(() => this.#listOpenTransactions());
  }

  /** `call` again while the cluster does not answer or answers "try again", for up to the patience (a broker restarting must not fail the task). */
  async #patiently<R>(call: () => Promise<R>): Promise<R> {
    const deadline = Date.now() + this.patienceMs;
    for (let attempt = 1; ; attempt++) {
      this.signal?.throwIfAborted();
      try {
        return await call();
      } catch (err) {
        if (Date.now() >= deadline || !(isUnreachable(err) || isRetriable(err))) throw err;
        await backOff(attempt, this.signal);
      }
    }
  }

  async #listOpenTransactions(): Promise<string[]> {
    const metadata = await this.#admin.metadata({ topics: [] });
    const ids: string[] = [];
    for (const broker of metadata.brokers.values()) {
      const connection = new (kafkaLibrary().Connection)(`${this.settings.clientId}-txn-list`);
      try {
        await connection.connect(broker.host, broker.port);
        const response = await kafkaLibrary().listTransactionsV0.api.async(connection, [], [], -1n, null);
        for (const state of response.transactionStates) {
          if (!/complete|empty|dead/i.test(state.transactionState)) ids.push(state.transactionalId);
        }
      } finally {
        await connection.close().catch(() => {});
      }
    }
    return ids;
  }

  async #withCoordinator<R>(transactionalId: string, call: (connection: Connection) => Promise<R>): Promise<R> {
    const deadline = Date.now() + this.patienceMs;
    for (let attempt = 1; ; attempt++) {
      this.signal?.throwIfAborted();
      let coordinatorAddress: string | undefined;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CallTimedOut()), CALL_TIMEOUT_MS);
      });
      // Aborted mid-call: its connection is dropped below, so a request not yet written is never sent.
      const abortion = whenAborted(this.signal);
      try {
        return await Promise.race([
          (async () => {
            const [coordinator] = await this.#admin.findCoordinator({ keyType: 1, keys: [transactionalId] });
            coordinatorAddress = `${coordinator!.host}:${coordinator!.port}`;
            return await call(await this.#connectionTo(coordinator!.host, coordinator!.port));
          })(),
          timedOut,
          abortion.promise,
        ]);
      } catch (err) {
        // The connection may be what failed (or hung): the next call connects anew.
        if (coordinatorAddress !== undefined) this.#dropConnection(coordinatorAddress);
        this.signal?.throwIfAborted();
        const hung = err instanceof CallTimedOut;
        // Refused or broken connections (a broker restarting, or a kept connection it closed as idle) and "try again" answers are retried.
        if (Date.now() >= deadline || !(hung || isUnreachable(err) || isRetriable(err))) {
          if (!hung) throw err;
          throw new WeirError(
            ConnectorErrorCode.KAFKA_UNREACHABLE,
            `the transaction coordinator of ${transactionalId} at ${this.settings.bootstrapServers.join(', ')} (bootstrap.servers) answered none of ${attempt} attempts within ${CALL_TIMEOUT_MS} ms each (for ${this.patienceMs} ms: the KafkaSink's delivery.timeout.ms)`,
          );
        }
        if (hung || isUnreachable(err)) {
          // The admin's own connections may be the hung or broken ones: start over with new ones.
          void this.#admin.close().catch(() => {});
          this.#admin = createAdmin(this.settings);
        }
        await backOff(attempt, this.signal);
      } finally {
        clearTimeout(timer);
        abortion.dispose();
      }
    }
  }

  #connectionTo(host: string, port: number): Promise<Connection> {
    const address = `${host}:${port}`;
    const known = this.#coordinators.get(address);
    if (known !== undefined) return known;
    const connection = new (kafkaLibrary().Connection)(`${this.settings.clientId}-txn`);
    const connecting = (async () => {
      await connection.connect(host, port);
      return connection;
    })();
    this.#coordinators.set(address, connecting);
    return connecting;
  }

  #dropConnection(address: string): void {
    const connecting = this.#coordinators.get(address);
    this.#coordinators.delete(address);
    void connecting?.then((c) => c.close()).catch(() => {});
  }
}

class CallTimedOut extends Error {}

function isRetriable(err: unknown): boolean {
  return [...kafkaErrorIds(err)].some((id) => RETRIABLE.has(id));
}

/** Waits before the next attempt; an abort ends the wait at once (the next attempt then throws). */
function backOff(attempt: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.min(MAX_RETRY_DELAY_MS, 50 * attempt));
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** A promise that rejects with the signal's reason when it is aborted; dispose() stops listening. */
function whenAborted(signal: AbortSignal | undefined): { promise: Promise<never>; dispose(): void } {
  if (signal === undefined) return { promise: new Promise<never>(() => {}), dispose: () => {} };
  let onAbort = (): void => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => {});
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/** KAFKA_TRANSACTION_TIMEOUT_TOO_LONG: the sink's timeout, the brokers' limit when known, and both ways out. */
export function transactionTimeoutTooLong(transactionTimeoutMs: number, maxMs: number | undefined, cause?: unknown): WeirError {
  const limit = maxMs === undefined ? "the brokers' transaction.max.timeout.ms" : `the brokers' transaction.max.timeout.ms (${maxMs} ms)`;
  return new WeirError(
    ConnectorErrorCode.KAFKA_TRANSACTION_TIMEOUT_TOO_LONG,
    `the KafkaSink's transaction.timeout.ms (${transactionTimeoutMs} ms) is above ${limit}: the brokers refuse every transaction of this sink; ` +
      "lower it with setProperty('transaction.timeout.ms', ...) (still well above the checkpoint interval), or raise transaction.max.timeout.ms on the brokers",
    cause === undefined ? undefined : { cause },
  );
}
