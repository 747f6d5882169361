import type { Client, ClientConfig, DatabaseError } from 'pg';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { pgLibrary } from './postgres-library.ts';

/** Where a Postgres connector connects (Flink CDC's names). */
export interface PostgresConnectionOptions {
  readonly hostname: string;
  readonly port: number;
  readonly database: string;
  readonly username: string;
  readonly password?: string;
}

/** How long a connection attempt may take before the connector reports the server unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;

export function clientConfig(options: PostgresConnectionOptions, applicationName: string): ClientConfig {
  return {
    host: options.hostname,
    port: options.port,
    database: options.database,
    user: options.username,
    ...(options.password === undefined ? {} : { password: options.password }),
    application_name: applicationName,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Keep values as the server's text for the types JSON cannot hold exactly (int8, numeric): the default parsers already do.
  };
}

/** A connected client; a failure to connect becomes the WeirError that says why. */
export async function connect(options: PostgresConnectionOptions, applicationName: string): Promise<Client> {
  const { Client } = pgLibrary();
  const client = new Client(clientConfig(options, applicationName));
  // An idle client whose server goes away emits 'error'; the next query reports it.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw postgresFailure(err, options, 'connecting');
  }
  return client;
}

/** `postgres://`, `postgresql://` or Flink's `jdbc:postgresql://` URL: host, port (default 5432) and database. */
export function parsePostgresUrl(url: string): Pick<PostgresConnectionOptions, 'hostname' | 'port' | 'database'> {
  const match = /^(?:jdbc:)?postgres(?:ql)?:\/\/([^/:?]+)(?::(\d{1,5}))?\/([^?/]+)(?:\?.*)?$/.exec(typeof url === 'string' ? url : '');
  if (match === null) {
    throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `a PostgreSQL URL is jdbc:postgresql://host[:port]/database (or postgres://...), got ${JSON.stringify(url)}`);
  }
  return { hostname: match[1]!, port: match[2] === undefined ? 5432 : Number(match[2]), database: decodeURIComponent(match[3]!) };
}

/** The fields of node-postgres' DatabaseError that say what went wrong, when `err` is one. */
export function databaseError(err: unknown): (DatabaseError & { code: string }) | undefined {
  const e = err as Partial<DatabaseError> | null;
  return e !== null && typeof e === 'object' && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? (e as DatabaseError & { code: string }) : undefined;
}

/** Whether the connection (rather than the statement) failed: a retry on a new connection may succeed. */
export function isConnectionFailure(err: unknown): boolean {
  const db = databaseError(err);
  if (db !== undefined) return db.code.startsWith('08') || db.code === '57P01' || db.code === '57P02' || db.code === '57P03';
  const text = String((err as Error)?.message ?? err);
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Connection terminated|timeout expired|not queryable|Client was closed|Client has encountered a connection error/i.test(text);
}

/** A PostgreSQL or connection error as the WeirError that names what is wrong and what would be right. */
export function postgresFailure(err: unknown, options: PostgresConnectionOptions, doing: string): WeirError {
  if (err instanceof WeirError) return err;
  const where = `${options.hostname}:${options.port}/${options.database}`;
  const db = databaseError(err);
  const message = String((err as Error)?.message ?? err);
  if (db?.code === '28P01' || db?.code === '28000') {
    return new WeirError(
      ConnectorErrorCode.POSTGRES_AUTH_FAILED,
      `PostgreSQL at ${where} refused user '${options.username}' ${doing}: ${message} (check the username and password, and that pg_hba.conf lets this user in from here)`,
      { cause: err },
    );
  }
  if (db?.code === '3D000') {
    return new WeirError(ConnectorErrorCode.POSTGRES_TABLE_NOT_FOUND, `database '${options.database}' does not exist on the PostgreSQL server at ${options.hostname}:${options.port}: ${message}`, { cause: err });
  }
  if (db?.code === '42P01') {
    return new WeirError(ConnectorErrorCode.POSTGRES_TABLE_NOT_FOUND, `${message} in database '${options.database}' at ${where} (${doing}); create it first, or fix the table name`, { cause: err });
  }
  if (isConnectionFailure(err)) {
    return new WeirError(ConnectorErrorCode.POSTGRES_UNREACHABLE, `no PostgreSQL server answered at ${where} ${doing}: ${message}`, { cause: err });
  }
  const state = db === undefined ? '' : ` (SQLSTATE ${db.code}${db.detail ? `; ${db.detail}` : ''})`;
  return new WeirError(ConnectorErrorCode.POSTGRES_ERROR, `PostgreSQL at ${where} failed ${doing}: ${message}${state}`, { cause: err });
}

/** `"schema"."table"` from `table` or `schema.table`, each part quoted as an identifier. */
export function quoteTable(table: string): string {
  return table.split('.').map(quoteIdentifier).join('.');
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
