import {
  Boundedness,
  StaticSplitEnumerator,
  type ExclusiveResource,
  type JobEndStatus,
  type SourceReaderContext,
  type SplitEnumeratorContext,
  type SplitSource,
} from '@weir/api';
import { createLogger, WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../../errors.ts';
import type { PostgresConnectionOptions } from '../postgres-connection.ts';
import { CDC_SPLIT_ID, requireCdcSplit, type PostgresCdcSplit } from './cdc-split.ts';
import { ChangeEventDeserializationSchema, type ChangeEvent, type DebeziumDeserializationSchema } from './change-event.ts';
import { PostgresCdcReader, type StartupMode } from './postgres-cdc-reader.ts';
import { dropReplicationSlot, dropSlotSql, slotClaim } from './replication-slot.ts';

/** Flink CDC's default heartbeat.interval.ms for PostgreSQL. */
const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;

/** Everything a PostgresCdcSourceBuilder collected. */
export interface PostgresCdcSourceConfig<T> {
  readonly connection: PostgresConnectionOptions;
  /** `schema.table` of each captured table. */
  readonly tables: readonly string[];
  readonly slotName: string;
  readonly publicationName: string;
  readonly startup: StartupMode;
  readonly deserializer: DebeziumDeserializationSchema<T>;
  /** Drop the slot when the job is cancelled (Debezium's slot.drop.on.stop); kept otherwise, and always when the job failed. */
  readonly dropSlotOnStop?: boolean;
  /** Flink CDC's heartbeat.interval.ms (heartbeat.ts); default 30 s, 0 turns it off. */
  readonly heartbeatIntervalMs?: number;
}

/**
 * Change data capture out of PostgreSQL (Flink CDC's PostgreSQLSource): a consistent snapshot
 * of the captured tables, then their changes through logical replication with pgoutput, as
 * change events of Flink CDC's shape. A FLIP-27 split source with one split (snapshot, then
 * stream), read by one reader: the other readers of a parallel source finish at once.
 */
export class PostgresCdcSource<T> implements SplitSource<T, PostgresCdcSplit, PostgresCdcSplit[]> {
  readonly boundedness: Boundedness;

  constructor(readonly config: PostgresCdcSourceConfig<T>) {
    this.boundedness = config.startup === 'snapshot-only' ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
  }

  /** A builder (Flink CDC's PostgresSourceBuilder): set the connection, tables, slot, publication and a deserializer. */
  static builder<T = ChangeEvent>(): PostgresCdcSourceBuilder<T> {
    return new PostgresCdcSourceBuilder<T>();
  }

  createEnumerator(context: SplitEnumeratorContext<PostgresCdcSplit>): StaticSplitEnumerator<PostgresCdcSplit> {
    const { startup, tables } = this.config;
    const split: PostgresCdcSplit = { splitId: CDC_SPLIT_ID, phase: startup === 'latest' ? 'stream' : 'snapshot', tables: startup === 'latest' ? [] : tables, lastKey: null, lsn: null, exported: false };
    return new StaticSplitEnumerator(context, [split]);
  }

  restoreEnumerator(context: SplitEnumeratorContext<PostgresCdcSplit>, checkpoint: PostgresCdcSplit[]): StaticSplitEnumerator<PostgresCdcSplit> {
    if (!Array.isArray(checkpoint)) throw new WeirError(ConnectorErrorCode.INVALID_POSITION, `a PostgresCdcSource enumerator resumes from its unassigned splits, got ${JSON.stringify(checkpoint)}`);
    return new StaticSplitEnumerator(context, checkpoint.map(requireCdcSplit));
  }

  createReader(context: SourceReaderContext): PostgresCdcReader<T> {
    return new PostgresCdcReader<T>({ ...this.config, subtask: context.subtaskIndex, heartbeatIntervalMs: this.config.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS });
  }

  /** The slot, for this job alone (two jobs on one slot would take each other's changes); `weir cancel` and `weir info` say how to drop it once the job ended. */
  exclusiveResources(): ExclusiveResource[] {
    const { startup, connection, slotName, dropSlotOnStop } = this.config;
    return startup === 'snapshot-only' ? [] : [slotClaim(connection, slotName, dropSlotOnStop === true)];
  }

  /** A cancelled job drops its slot when told to (dropSlotOnStop); a failed one keeps it, so that a restore from a retained checkpoint finds its changes. */
  async jobEnded(status: JobEndStatus): Promise<void> {
    const { startup, connection, slotName, dropSlotOnStop } = this.config;
    if (startup === 'snapshot-only') return;
    const logger = createLogger('postgres-cdc-source');
    const where = `${connection.hostname}:${connection.port}/${connection.database}`;
    if (dropSlotOnStop !== true || status !== 'CANCELED') {
      logger.info({ slot: slotName, status }, `the job ended ${status}; replication slot '${slotName}' on ${where} is kept and holds WAL until dropped: ${dropSlotSql(slotName)}`);
      return;
    }
    const dropped = await dropReplicationSlot(connection, slotName);
    logger.info({ slot: slotName }, dropped ? `the job was cancelled: dropped replication slot '${slotName}' on ${where}` : `the job was cancelled; replication slot '${slotName}' on ${where} was not there`);
  }
}

/** Flink CDC's PostgresSourceBuilder names. */
export class PostgresCdcSourceBuilder<T> {
  #hostname: string | undefined;
  #port = 5432;
  #database: string | undefined;
  #schemas: readonly string[] = ['public'];
  #tables: readonly string[] | undefined;
  #username = 'postgres';
  #password: string | undefined;
  #slotName: string | undefined;
  #publicationName = 'dbz_publication';
  #startup: StartupMode = 'initial';
  #deserializer: DebeziumDeserializationSchema<T> = new ChangeEventDeserializationSchema() as unknown as DebeziumDeserializationSchema<T>;
  #dropSlotOnStop = false;
  #heartbeatIntervalMs = DEFAULT_HEARTBEAT_INTERVAL_MS;

  /** Flink CDC's hostname: the PostgreSQL server's host. */
  hostname(hostname: string): this {
    this.#hostname = requireName(hostname, 'hostname');
    return this;
  }

  /** Flink CDC's port: the server's port (default 5432). */
  port(port: number): this {
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `port() takes 1..65535, got ${JSON.stringify(port)}`);
    this.#port = port;
    return this;
  }

  /** Flink CDC's database: the database whose changes are read. */
  database(database: string): this {
    this.#database = requireName(database, 'database');
    return this;
  }

  /** Schemas of the tables named without one in tableList (the first is used); default public. */
  schemaList(...schemas: string[]): this {
    if (schemas.length === 0) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'schemaList() takes at least one schema');
    this.#schemas = schemas.map((s) => requireName(s, 'schemaList'));
    return this;
  }

  /** The captured tables, `schema.table` or `table` (in the first of schemaList). */
  tableList(...tables: string[]): this {
    if (tables.length === 0) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'tableList() takes at least one table');
    this.#tables = tables.map((t) => requireName(t, 'tableList'));
    return this;
  }

  /** Flink CDC's username: the role the source logs in as (it needs replication rights). */
  username(username: string): this {
    this.#username = requireName(username, 'username');
    return this;
  }

  /** Flink CDC's password: that role's password. */
  password(password: string): this {
    if (typeof password !== 'string') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'password() takes a string');
    this.#password = password;
    return this;
  }

  /** The logical replication slot (created if missing); one per job: two jobs on one slot would take each other's changes. */
  slotName(slotName: string): this {
    if (typeof slotName !== 'string' || !/^[a-z0-9_]{1,63}$/.test(slotName)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `slotName() takes 1 to 63 lower-case letters, digits and '_' (PostgreSQL's rule for slot names), got ${JSON.stringify(slotName)}`);
    }
    this.#slotName = slotName;
    return this;
  }

  /**
   * Whether a cancelled job drops its replication slot (Debezium's and Flink CDC's
   * `slot.drop.on.stop`); default false: the slot is kept, holding the server's WAL, and `weir
   * cancel` prints how to drop it. A failed job keeps it either way (and a failover never drops
   * it), so that a restore from a retained checkpoint still finds its changes.
   */
  dropSlotOnStop(drop: boolean): this {
    if (typeof drop !== 'boolean') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `dropSlotOnStop() takes true or false, got ${JSON.stringify(drop)}`);
    this.#dropSlotOnStop = drop;
    return this;
  }

  /**
   * How often the source writes a heartbeat into the captured database (Flink CDC's
   * `heartbeatInterval`, `heartbeat.interval.ms`; default 30 s, 0 turns it off): a logical
   * decoding message (`pg_logical_emit_message`, no table needed) that lets the slot move past
   * the WAL other tables and databases write while the captured tables are quiet. Without it
   * that WAL stays on the server until the next captured change.
   */
  heartbeatIntervalMs(ms: number): this {
    if (!Number.isInteger(ms) || ms < 0) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `heartbeatIntervalMs() takes a whole number of milliseconds, 0 to turn the heartbeat off, got ${JSON.stringify(ms)}`);
    this.#heartbeatIntervalMs = ms;
    return this;
  }

  /** The publication pgoutput streams (created for the captured tables if missing); default dbz_publication, as Flink CDC's. */
  publicationName(publicationName: string): this {
    this.#publicationName = requireName(publicationName, 'publicationName');
    return this;
  }

  /** `initial` (snapshot, then changes; the default), `latest` (changes from now on) or `snapshot-only` (a bounded snapshot). */
  startupOptions(startup: StartupMode): this {
    if (startup !== 'initial' && startup !== 'latest' && startup !== 'snapshot-only') {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `startupOptions() takes 'initial', 'latest' or 'snapshot-only', got ${JSON.stringify(startup)}`);
    }
    this.#startup = startup;
    return this;
  }

  /** What each change event becomes: ChangeEventDeserializationSchema (the events, typed; the default) or JsonDebeziumDeserializationSchema (Debezium's JSON text). */
  deserializer<R>(deserializer: DebeziumDeserializationSchema<R>): PostgresCdcSourceBuilder<R> {
    if (typeof deserializer?.deserialize !== 'function') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'deserializer() takes an object with deserialize(event)');
    const next = this as unknown as PostgresCdcSourceBuilder<R>;
    next.#deserializer = deserializer;
    return next;
  }

  /** The PostgresCdcSource; fails with a clear error when hostname, database, tables or the slot name are missing. */
  build(): PostgresCdcSource<T> {
    if (this.#hostname === undefined || this.#database === undefined) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a PostgresCdcSource needs hostname(...) and database(...)');
    if (this.#tables === undefined) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a PostgresCdcSource needs tableList(schema.table, ...)');
    if (this.#slotName === undefined && this.#startup !== 'snapshot-only') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'a PostgresCdcSource needs slotName(...), unique to the job');
    const schema = this.#schemas[0]!;
    return new PostgresCdcSource<T>({
      connection: { hostname: this.#hostname, port: this.#port, database: this.#database, username: this.#username, ...(this.#password === undefined ? {} : { password: this.#password }) },
      tables: this.#tables.map((t) => (t.includes('.') ? t : `${schema}.${t}`)),
      slotName: this.#slotName ?? '',
      publicationName: this.#publicationName,
      startup: this.#startup,
      deserializer: this.#deserializer,
      dropSlotOnStop: this.#dropSlotOnStop,
      heartbeatIntervalMs: this.#heartbeatIntervalMs,
    });
  }
}

function requireName(value: unknown, method: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `${method}() takes a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}
