import type { Client } from 'pg';
import type { SinkWriter } from '@weir/api';
import { createLogger, WeirError, type Logger } from '@weir/common';
import { DeliveryGuarantee } from '../kafka/kafka-writer.ts';
import { connect, isConnectionFailure, postgresFailure, type PostgresConnectionOptions } from './postgres-connection.ts';
import { gidOf, literal, type PostgresCommittable } from './prepared-transactions.ts';
import { executeBatch } from './sink-batch.ts';
import { toOperation, type RowOperation, type SinkMode } from './sink-operations.ts';

/** What a PostgresSink writer keeps in a checkpoint: the checkpoint it was taken for (its prepared transactions are named after checkpoints). */
export interface PostgresWriterState {
  readonly checkpointId: number;
}

export interface PostgresWriterOptions<T> {
  readonly connection: PostgresConnectionOptions;
  readonly mode: SinkMode<T>;
  readonly guarantee: DeliveryGuarantee;
  readonly batchSize: number;
  readonly batchIntervalMs: number;
  readonly maxRetries: number;
  readonly transactionIdPrefix: string;
  readonly subtask: number;
  /** The writer's connection, already connected (and checked) by the sink. */
  readonly client: Client;
}

/**
 * Flink's JdbcWriter. Records are buffered and written in batches of `batchSize` (or after
 * `batchIntervalMs`, and at every checkpoint). AT_LEAST_ONCE: the task waits for a full batch
 * (backpressure); each batch in a transaction of its own, retried on a new connection up to `maxRetries` times when the connection failed
 * (upserts are idempotent, so a batch the server applied before the connection broke may be
 * applied again). EXACTLY_ONCE: the batches of a checkpoint interval go into one transaction,
 * which `prepareCommit(n)` ends with PREPARE TRANSACTION '<prefix>-<subtask>-<n>': durable,
 * invisible, and no longer tied to this connection; the committer commits it once checkpoint n
 * completes. A connection lost mid-interval loses its transaction, so the writer fails and the
 * job restores from the last checkpoint, whose records are replayed. The task never waits for
 * an EXACTLY_ONCE batch before the checkpoint (see `write`): records queue in memory while a
 * batch waits for the previous transaction's commit, at most about a checkpoint interval's.
 */
export class PostgresWriter<T> implements SinkWriter<T> {
  readonly #logger: Logger;
  #client: Client | undefined;
  #buffer: RowOperation[] = [];
  /** The batch being written; the next waits for it, so batches reach the server in order. */
  #writing: Promise<void> = Promise.resolve();
  #failure: unknown;
  #timer: NodeJS.Timeout | undefined;
  /** EXACTLY_ONCE: a transaction is open on the connection (records went in since the last prepareCommit). */
  #inTransaction = false;

  constructor(private readonly options: PostgresWriterOptions<T>) {
    this.#logger = createLogger('postgres-writer', { subtask: options.subtask });
    this.#client = options.client;
  }

  write(record: T): void | Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    this.#buffer.push(toOperation(this.options.mode, record));
    if (this.#buffer.length >= this.options.batchSize) {
      const written = this.#flushBuffer();
      // EXACTLY_ONCE: the batch may wait for a row lock of the previous checkpoint's prepared
      // transaction, which its COMMIT PREPARED releases; that commit runs on this task after the
      // record it is handed, so the task must not wait for the batch. A failure is kept and
      // thrown by the next write, flush or prepareCommit.
      if (this.options.guarantee !== DeliveryGuarantee.EXACTLY_ONCE) return written;
      written.catch(() => {});
      return;
    }
    if (this.options.batchIntervalMs > 0 && this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        // A failure here is kept and thrown by the next write or flush.
        this.#flushBuffer().catch(() => {});
      }, this.options.batchIntervalMs);
    }
  }

  /** Everything written so far is executed (AT_LEAST_ONCE: committed; EXACTLY_ONCE: in the open transaction) when this resolves. */
  async flush(): Promise<void> {
    await this.#flushBuffer();
  }

  async prepareCommit(checkpointId: number): Promise<PostgresCommittable[]> {
    if (this.options.guarantee !== DeliveryGuarantee.EXACTLY_ONCE) return [];
    await this.#flushBuffer();
    // No record since the last checkpoint: no transaction to prepare.
    if (!this.#inTransaction) return [];
    const gid = gidOf(this.options.transactionIdPrefix, this.options.subtask, checkpointId);
    const client = this.#client!;
    try {
      const { rows } = await client.query<{ xid: string }>('SELECT txid_current()::text AS xid');
      await client.query(`PREPARE TRANSACTION ${literal(gid)}`);
      this.#inTransaction = false;
      this.#logger.debug({ checkpointId, gid }, 'transaction prepared for commit');
      return [{ gid, xid: rows[0]!.xid }];
    } catch (err) {
      throw this.#fail(err, `preparing transaction ${gid}`);
    }
  }

  snapshotState(checkpointId: number): PostgresWriterState {
    return { checkpointId };
  }

  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const client = this.#client;
    this.#client = undefined;
    // An open transaction ends with the connection (rolled back): nothing promised it. Ended
    // before waiting for a batch in flight, which may wait for a row lock that only a commit
    // after this close releases.
    await client?.end().catch(() => {});
    await this.#writing.catch(() => {});
  }

  #flushBuffer(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#buffer;
    this.#buffer = [];
    const previous = this.#writing;
    this.#writing = previous.then(() => (batch.length === 0 ? undefined : this.#execute(batch)));
    return this.#writing;
  }

  async #execute(batch: readonly RowOperation[]): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.options.guarantee === DeliveryGuarantee.EXACTLY_ONCE) {
      const client = this.#client!;
      try {
        if (!this.#inTransaction) {
          await client.query('BEGIN');
          this.#inTransaction = true;
        }
        await executeBatch(client, this.options.mode, batch);
      } catch (err) {
        throw this.#fail(err, `writing ${batch.length} records`);
      }
      return;
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const client = (this.#client ??= await connect(this.options.connection, 'weir-postgres-sink'));
        await client.query('BEGIN');
        try {
          await executeBatch(client, this.options.mode, batch);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw err;
        }
        return;
      } catch (err) {
        if (!isConnectionFailure(err) || attempt >= this.options.maxRetries) throw this.#fail(err, `writing ${batch.length} records`);
        this.#logger.warn({ attempt: attempt + 1, err: String(err) }, 'writing a batch failed on its connection; retrying on a new one');
        const broken = this.#client;
        this.#client = undefined;
        await broken?.end().catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 1000 * (attempt + 1)));
      }
    }
  }

  #fail(err: unknown, doing: string): WeirError {
    const failure = postgresFailure(err, this.options.connection, doing);
    this.#failure = failure;
    return failure;
  }
}
