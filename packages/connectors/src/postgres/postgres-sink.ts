import { createHash } from 'node:crypto';
import type { Client } from 'pg';
import type { ConnectorContext, ExclusiveResource, Sink } from '@weir/api';
import { createLogger, WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { DeliveryGuarantee } from '../kafka/kafka-writer.ts';
import { PostgresCommitter } from './postgres-committer.ts';
import { connect, parsePostgresUrl, postgresFailure, quoteTable, type PostgresConnectionOptions } from './postgres-connection.ts';
import { PostgresWriter, type PostgresWriterState } from './postgres-writer.ts';
import { requirePreparedTransactions, rollBackLingering } from './prepared-transactions.ts';
import type { ChangelogRecord, SinkMode } from './sink-operations.ts';

/** Flink's JdbcExecutionOptions defaults: 5000 records per batch, no interval, 3 retries. */
const DEFAULT_BATCH_SIZE = 5000;
const DEFAULT_BATCH_INTERVAL_MS = 0;
const DEFAULT_MAX_RETRIES = 3;

/** Everything a PostgresSinkBuilder collected. */
export interface PostgresSinkConfig<T> {
  readonly connection: PostgresConnectionOptions;
  readonly mode: SinkMode<T>;
  readonly guarantee: DeliveryGuarantee;
  readonly batchSize: number;
  readonly batchIntervalMs: number;
  readonly maxRetries: number;
  readonly transactionIdPrefix: string;
}

/**
 * Writes records into PostgreSQL (Flink's JdbcSink shapes: a statement with a parameter
 * binder, an upsert into a table by its primary key, or a changelog of CDC events applied as
 * inserts, updates and deletes by primary key). AT_LEAST_ONCE: batches committed as they go
 * and at every checkpoint. EXACTLY_ONCE: two-phase commit with PostgreSQL's own PREPARE
 * TRANSACTION (where Flink uses XA): one transaction per subtask and checkpoint, prepared at
 * the barrier, committed (COMMIT PREPARED) when the checkpoint completes, committed again on
 * restore; every other prepared transaction of the prefix is rolled back when the job starts.
 */
export class PostgresSink<T> implements Sink<T> {
  constructor(readonly config: PostgresSinkConfig<T>) {}

  /** A builder: set the connection, then a statement with its parameter binder, an upsert table or a changelog table. */
  static builder<T = unknown>(): PostgresSinkBuilder<T> {
    return new PostgresSinkBuilder<T>();
  }

  /**
   * EXACTLY_ONCE: the prepared transactions' prefix in this database. Each start rolls back the
   * prefix's prepared transactions no checkpoint of its own promised, so a second running job
   * with it (the default prefix is the table's: two jobs writing one table) would roll back the
   * first one's.
   */
  exclusiveResources(): ExclusiveResource[] {
    const { guarantee, transactionIdPrefix, connection } = this.config;
    if (guarantee !== DeliveryGuarantee.EXACTLY_ONCE) return [];
    const database = `${connection.hostname}:${connection.port}/${connection.database}`;
    return [{ kind: 'postgres.transaction-id-prefix', scope: database, name: transactionIdPrefix, description: `PostgreSQL prepared transaction prefix '${transactionIdPrefix}' in ${database}` }];
  }

  async createWriter(context: ConnectorContext, restoredState?: readonly unknown[]): Promise<PostgresWriter<T>> {
    const { connection, mode, guarantee, transactionIdPrefix } = this.config;
    const client = await connect(connection, 'weir-postgres-sink');
    try {
      await this.#check(client);
      if (guarantee === DeliveryGuarantee.EXACTLY_ONCE) {
        await requirePreparedTransactions(client, `${connection.hostname}:${connection.port}`);
        const restoredCheckpointId = restoredState === undefined ? undefined : Math.max(0, ...restoredState.map(requireWriterState).map((s) => s.checkpointId));
        const rolledBack = await rollBackLingering(client, transactionIdPrefix, context.subtaskIndex, context.parallelism, restoredCheckpointId);
        if (rolledBack.length > 0) createLogger('postgres-sink', { subtask: context.subtaskIndex }).info({ gids: rolledBack }, 'rolled back prepared transactions no checkpoint promised');
      }
    } catch (err) {
      await client.end().catch(() => {});
      throw postgresFailure(err, connection, 'starting the PostgresSink');
    }
    return new PostgresWriter<T>({ ...this.config, subtask: context.subtaskIndex, client, mode });
  }

  createCommitter(): PostgresCommitter {
    return new PostgresCommitter(this.config.connection);
  }

  /** The target table exists (a statement's table is checked by the server when it runs). */
  async #check(client: Client): Promise<void> {
    const { mode, connection } = this.config;
    if (mode.kind === 'statement') return;
    const { rows } = await client.query<{ oid: string | null }>('SELECT to_regclass($1)::oid::text AS oid', [quoteTable(mode.table)]);
    if (rows[0]?.oid === null || rows[0]?.oid === undefined) {
      throw new WeirError(
        ConnectorErrorCode.POSTGRES_TABLE_NOT_FOUND,
        `the PostgresSink's table ${mode.table} does not exist in database '${connection.database}' at ${connection.hostname}:${connection.port}; create it (with a primary key on ${mode.primaryKey.join(', ')}) first`,
      );
    }
  }
}

function requireWriterState(state: unknown): PostgresWriterState {
  const checkpointId = (state as Partial<PostgresWriterState> | null)?.checkpointId;
  if (typeof checkpointId !== 'number' || !Number.isSafeInteger(checkpointId) || checkpointId < 0) {
    throw new WeirError(ConnectorErrorCode.INVALID_RESTORED_STATE, `a PostgresSink writer resumes from { checkpointId }, got ${JSON.stringify(state)}`);
  }
  return { checkpointId };
}

/**
 * Flink's JdbcSink options as one builder: JdbcConnectionOptions (withUrl, withUsername,
 * withPassword), JdbcExecutionOptions (withBatchSize, withBatchIntervalMs, withMaxRetries), the
 * statement or table, and the delivery guarantee.
 */
export class PostgresSinkBuilder<T> {
  #url: Pick<PostgresConnectionOptions, 'hostname' | 'port' | 'database'> | undefined;
  #username = 'postgres';
  #password: string | undefined;
  #mode: SinkMode<T> | undefined;
  #guarantee: DeliveryGuarantee = DeliveryGuarantee.AT_LEAST_ONCE;
  #batchSize = DEFAULT_BATCH_SIZE;
  #batchIntervalMs = DEFAULT_BATCH_INTERVAL_MS;
  #maxRetries: number | undefined;
  #prefix: string | undefined;

  /** `jdbc:postgresql://host[:port]/database` (or `postgres://...`). */
  withUrl(url: string): this {
    this.#url = parsePostgresUrl(url);
    return this;
  }

  /** Flink's JdbcConnectionOptions withUsername: the role the sink logs in as. */
  withUsername(username: string): this {
    this.#username = requireText(username, 'withUsername');
    return this;
  }

  /** Flink's JdbcConnectionOptions withPassword: that role's password. */
  withPassword(password: string): this {
    this.#password = typeof password === 'string' ? password : requireText(password, 'withPassword');
    return this;
  }

  /** Runs `sql` (with $1, $2... placeholders) for each record, with `binder(record)` as the parameters (Flink's JdbcStatementBuilder). */
  withStatement(sql: string, binder: (record: T) => readonly unknown[]): this {
    requireText(sql, 'withStatement');
    if (typeof binder !== 'function') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'withStatement(sql, binder) takes a function from a record to its parameters');
    this.#mode = { kind: 'statement', sql, binder };
    return this;
  }

  /** Inserts `rowOf(record)` (column name -> value) into `table`, updating the row with the same primary key. */
  withUpsert(table: string, primaryKey: readonly string[], rowOf: (record: T) => Readonly<Record<string, unknown>>): this {
    if (typeof rowOf !== 'function') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'withUpsert(table, primaryKey, rowOf) takes a function from a record to its row');
    this.#mode = { kind: 'upsert', table: requireText(table, 'withUpsert'), primaryKey: requireKey(primaryKey), rowOf };
    return this;
  }

  /** Applies CDC change events ({ op, before, after }, as PostgresCdcSource emits them) to `table`: c, r and u upsert `after`, d deletes `before`'s key. */
  withChangelog(table: string, primaryKey: readonly string[]): this {
    this.#mode = { kind: 'changelog', table: requireText(table, 'withChangelog'), primaryKey: requireKey(primaryKey) } as SinkMode<T> & { kind: 'changelog' };
    return this;
  }

  /** AT_LEAST_ONCE or EXACTLY_ONCE (NONE is refused); the package README says how each writes. */
  setDeliveryGuarantee(guarantee: DeliveryGuarantee): this {
    if (guarantee !== DeliveryGuarantee.AT_LEAST_ONCE && guarantee !== DeliveryGuarantee.EXACTLY_ONCE) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `a PostgresSink is AT_LEAST_ONCE or EXACTLY_ONCE, got ${JSON.stringify(guarantee)}`);
    }
    this.#guarantee = guarantee;
    return this;
  }

  /** Records per batch; default 5000. */
  withBatchSize(size: number): this {
    this.#batchSize = requireCount(size, 1, 'withBatchSize');
    return this;
  }

  /** A batch is written at most this long after its first record (0: only when full, and at checkpoints); default 0. */
  withBatchIntervalMs(ms: number): this {
    this.#batchIntervalMs = requireCount(ms, 0, 'withBatchIntervalMs');
    return this;
  }

  /** AT_LEAST_ONCE: retries of a batch whose connection failed; default 3. EXACTLY_ONCE takes 0 (as Flink's): a lost connection loses its transaction. */
  withMaxRetries(retries: number): this {
    this.#maxRetries = requireCount(retries, 0, 'withMaxRetries');
    return this;
  }

  /** EXACTLY_ONCE: the start of every prepared transaction's name; default derived from the database and the table (or statement). */
  setTransactionIdPrefix(prefix: string): this {
    if (typeof prefix !== 'string' || !/^[A-Za-z0-9._-]{1,100}$/.test(prefix)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `setTransactionIdPrefix() takes 1 to 100 letters, digits, '.', '_' and '-', got ${JSON.stringify(prefix)}`);
    }
    this.#prefix = prefix;
    return this;
  }

  /** The PostgresSink; fails with a clear error when the URL or statement is missing. */
  build(): PostgresSink<T> {
    if (this.#url === undefined) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a PostgresSink needs withUrl(jdbc:postgresql://host:port/database)');
    if (this.#mode === undefined) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a PostgresSink needs withStatement(sql, binder), withUpsert(table, primaryKey, rowOf) or withChangelog(table, primaryKey)');
    const exactlyOnce = this.#guarantee === DeliveryGuarantee.EXACTLY_ONCE;
    if (exactlyOnce && (this.#maxRetries ?? 0) > 0) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'an EXACTLY_ONCE PostgresSink takes withMaxRetries(0) (as Flink\'s exactly-once JDBC sink): a batch cannot be retried on a new connection, its transaction went with the old one; the job restores from its last checkpoint instead');
    }
    const connection: PostgresConnectionOptions = { ...this.#url, username: this.#username, ...(this.#password === undefined ? {} : { password: this.#password }) };
    const target = this.#mode.kind === 'statement' ? this.#mode.sql : this.#mode.table;
    return new PostgresSink<T>({
      connection,
      mode: this.#mode,
      guarantee: this.#guarantee,
      batchSize: this.#batchSize,
      batchIntervalMs: this.#batchIntervalMs,
      maxRetries: exactlyOnce ? 0 : (this.#maxRetries ?? DEFAULT_MAX_RETRIES),
      // Stable across resubmissions of the job (a new job id when it resumes from a savepoint), so a new job finds its predecessor's lingering transactions.
      transactionIdPrefix: this.#prefix ?? `weir-${createHash('sha256').update(`${connection.database}\0${target}`).digest('hex').slice(0, 12)}`,
    });
  }
}

function requireText(value: unknown, method: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `${method}() takes a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

function requireKey(primaryKey: readonly string[]): readonly string[] {
  if (!Array.isArray(primaryKey) || primaryKey.length === 0 || primaryKey.some((c) => typeof c !== 'string' || c === '')) {
    throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `a PostgresSink table needs its primary key as a non-empty array of column names, got ${JSON.stringify(primaryKey)}`);
  }
  return [...primaryKey];
}

function requireCount(value: number, min: number, method: string): number {
  if (!Number.isSafeInteger(value) || value < min) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `${method}() takes an integer >= ${min}, got ${JSON.stringify(value)}`);
  return value;
}

export type { ChangelogRecord };
