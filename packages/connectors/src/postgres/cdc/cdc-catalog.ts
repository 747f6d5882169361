import type { Client } from 'pg';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../../errors.ts';
import { pgLibrary } from '../postgres-library.ts';
import { literal } from '../prepared-transactions.ts';
import { clientConfig, databaseError, postgresFailure, quoteIdentifier, quoteTable, type PostgresConnectionOptions } from '../postgres-connection.ts';

/** A captured table: its qualified name and its primary key columns, in key order. */
export interface CapturedTable {
  readonly name: string;
  readonly schema: string;
  readonly table: string;
  readonly primaryKey: readonly string[];
}

/** Logical decoding needs wal_level = logical; say how to set it when it is not. */
export async function requireLogicalWal(client: Client, where: string): Promise<void> {
  const { rows } = await client.query<{ wal_level: string }>('SHOW wal_level');
  const level = rows[0]?.wal_level;
  if (level === 'logical') return;
  throw new WeirError(
    ConnectorErrorCode.POSTGRES_NOT_CONFIGURED,
    `the PostgresCdcSource reads changes through logical decoding, but wal_level is '${level}' on the PostgreSQL server at ${where}: ` +
      "set wal_level = logical (ALTER SYSTEM SET wal_level = logical, or in postgresql.conf) and restart the server; or use startupOptions('snapshot-only')",
  );
}

/** Each table exists and has a primary key (the snapshot reads in key order, and changes are applied by key). */
export async function lookUpTables(client: Client, names: readonly string[], where: string): Promise<CapturedTable[]> {
  const tables: CapturedTable[] = [];
  for (const name of names) {
    const { rows } = await client.query<{ oid: string | null }>('SELECT to_regclass($1)::oid::text AS oid', [quoteTable(name)]);
    const oid = rows[0]?.oid ?? null;
    if (oid === null) {
      throw new WeirError(ConnectorErrorCode.POSTGRES_TABLE_NOT_FOUND, `the PostgresCdcSource's table ${name} does not exist in ${where}; fix tableList (schema.table) or create it`);
    }
    const key = await client.query<{ attname: string }>(
      'SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::oid AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)',
      [oid],
    );
    if (key.rows.length === 0) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `the PostgresCdcSource's table ${name} has no primary key: the snapshot reads in key order and changes are applied by key; add one (ALTER TABLE ... ADD PRIMARY KEY)`);
    }
    const [schema, table] = name.split('.') as [string, string];
    tables.push({ name, schema, table, primaryKey: key.rows.map((r) => r.attname) });
  }
  return tables;
}

/** The publication pgoutput streams: created for the captured tables if it does not exist (Debezium's `filtered` autocreate), used as it is if it does. */
export async function ensurePublication(client: Client, publication: string, tables: readonly CapturedTable[]): Promise<void> {
  const { rows } = await client.query('SELECT 1 FROM pg_publication WHERE pubname = $1', [publication]);
  if (rows.length > 0) return;
  await client.query(`CREATE PUBLICATION ${quoteIdentifier(publication)} FOR TABLE ${tables.map((t) => quoteTable(t.name)).join(', ')}`).catch((err: unknown) => {
    // Another reader attempt created it meanwhile.
    if (databaseError(err)?.code !== '42710') throw err;
  });
}

/** A new slot and the snapshot it exported, or the existing slot's confirmed flush LSN (no snapshot). */
export type SlotStart = { readonly created: true; readonly lsn: string; readonly snapshotName: string; readonly replication: Client } | { readonly created: false; readonly lsn: string };

/**
 * Creates the logical replication slot with an exported snapshot (CREATE_REPLICATION_SLOT ...
 * (SNAPSHOT 'export')) on a replication connection, which must stay open, idle, until a
 * transaction imported the snapshot (SET TRANSACTION SNAPSHOT). A slot that exists already
 * (an earlier attempt created it) is used from its confirmed flush LSN.
 */
export async function createOrFindSlot(options: PostgresConnectionOptions, slot: string, withSnapshot: boolean): Promise<SlotStart> {
  const where = `${options.hostname}:${options.port}/${options.database}`;
  const { Client } = pgLibrary();
  const replication = new Client({ ...clientConfig(options, 'weir-postgres-cdc-slot'), replication: 'database' } as ConstructorParameters<typeof Client>[0]);
  replication.on('error', () => {});
  try {
    await replication.connect();
    // A replication connection takes the simple query protocol only: no parameters.
    const existing = await replication.query<{ lsn: string | null }>(`SELECT confirmed_flush_lsn::text AS lsn FROM pg_replication_slots WHERE slot_name = ${literal(slot)} AND database = current_database()`);
    const found = existing.rows[0];
    if (found !== undefined) {
      await replication.end().catch(() => {});
      return { created: false, lsn: found.lsn ?? '0/0' };
    }
    const { rows } = await replication.query<{ consistent_point: string; snapshot_name: string | null }>(
      `CREATE_REPLICATION_SLOT ${quoteIdentifier(slot)} LOGICAL pgoutput${withSnapshot ? " (SNAPSHOT 'export')" : " (SNAPSHOT 'nothing')"}`,
    );
    const { consistent_point: lsn, snapshot_name: snapshotName } = rows[0]!;
    if (!withSnapshot || snapshotName === null) {
      await replication.end().catch(() => {});
      return { created: false, lsn };
    }
    return { created: true, lsn, snapshotName, replication };
  } catch (err) {
    await replication.end().catch(() => {});
    const db = databaseError(err);
    if (db?.code === '53400') {
      throw new WeirError(
        ConnectorErrorCode.POSTGRES_NOT_CONFIGURED,
        `cannot create replication slot '${slot}' on ${where}: ${db.message}; drop slots no job uses (SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE NOT active) or raise max_replication_slots and restart the server`,
        { cause: err },
      );
    }
    if (db?.code === '55000' && /wal_level/.test(db.message)) {
      throw new WeirError(ConnectorErrorCode.POSTGRES_NOT_CONFIGURED, `cannot create replication slot '${slot}' on ${where}: ${db.message}; set wal_level = logical and restart the server`, { cause: err });
    }
    throw postgresFailure(err, options, `creating replication slot '${slot}'`);
  }
}
