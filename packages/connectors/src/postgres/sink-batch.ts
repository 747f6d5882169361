import type { Client } from 'pg';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { databaseError, quoteIdentifier, quoteTable } from './postgres-connection.ts';
import { keyOf, type RowOperation, type SinkMode } from './sink-operations.ts';

/** PostgreSQL takes at most 65535 parameters per statement; stay below it. */
const MAX_PARAMETERS = 60_000;

/** A run of operations that go to the server as one statement (or one statement per record). */
interface Run {
  readonly kind: RowOperation['kind'];
  readonly columns: readonly string[];
  readonly operations: RowOperation[];
}

/**
 * Executes a batch in order on `client`, inside the transaction the caller opened: consecutive
 * upserts (with the same columns) become one multi-row INSERT ... ON CONFLICT DO UPDATE,
 * consecutive deletes one DELETE ... WHERE (key) IN (...), keeping the last operation per key
 * (a key may occur twice in a batch, and one statement may not touch a row twice). A constraint
 * violation becomes POSTGRES_CONSTRAINT_VIOLATION naming the table, the constraint and the
 * record's key: the failing run is replayed record by record, each under a savepoint, to find it.
 */
export async function executeBatch<T>(client: Client, mode: SinkMode<T>, operations: readonly RowOperation[]): Promise<void> {
  for (const run of runsOf(operations)) {
    if (run.kind === 'statement') {
      await executeStatements(client, mode as Extract<SinkMode<T>, { kind: 'statement' }>, run);
      continue;
    }
    const { table, primaryKey } = mode as Extract<SinkMode<T>, { kind: 'upsert' | 'changelog' }>;
    const rows = lastPerKey(run.operations, primaryKey);
    await client.query('SAVEPOINT weir_batch');
    try {
      for (const chunk of chunksOf(rows, Math.max(1, Math.floor(MAX_PARAMETERS / run.columns.length)))) {
        await client.query(run.kind === 'upsert' ? upsertSql(table, primaryKey, run.columns, chunk.length) : deleteSql(table, primaryKey, chunk.length), parametersOf(chunk, run.kind === 'upsert' ? run.columns : primaryKey));
      }
    } catch (err) {
      if (databaseError(err)?.code.startsWith('23') !== true) throw err;
      await client.query('ROLLBACK TO SAVEPOINT weir_batch');
      throw await culprit(client, table, primaryKey, run, rows, err);
    }
    await client.query('RELEASE SAVEPOINT weir_batch');
  }
}

async function executeStatements<T>(client: Client, mode: Extract<SinkMode<T>, { kind: 'statement' }>, run: Run): Promise<void> {
  for (const operation of run.operations) {
    const params = (operation as Extract<RowOperation, { kind: 'statement' }>).params;
    try {
      await client.query(mode.sql, params as unknown[]);
    } catch (err) {
      const db = databaseError(err);
      if (db?.code.startsWith('23') !== true) throw err;
      throw constraintViolation(db.table ?? '(the statement\'s table)', db.constraint, `the record with parameters ${JSON.stringify(params).slice(0, 300)}`, err);
    }
  }
}

/** Runs the failing run's rows one at a time, each under a savepoint, and returns the violation of the first that fails. */
async function culprit(client: Client, table: string, primaryKey: readonly string[], run: Run, rows: readonly Readonly<Record<string, unknown>>[], batchError: unknown): Promise<WeirError> {
  for (const row of rows) {
    await client.query('SAVEPOINT weir_row');
    try {
      await client.query(run.kind === 'upsert' ? upsertSql(table, primaryKey, run.columns, 1) : deleteSql(table, primaryKey, 1), parametersOf([row], run.kind === 'upsert' ? run.columns : primaryKey));
      await client.query('RELEASE SAVEPOINT weir_row');
    } catch (err) {
      const db = databaseError(err);
      if (db?.code.startsWith('23') !== true) throw err;
      return constraintViolation(table, db.constraint, `the record with key ${keyOf(row, primaryKey)}`, err);
    }
  }
  const db = databaseError(batchError)!;
  return constraintViolation(table, db.constraint, 'a record of the batch', batchError);
}

function constraintViolation(table: string, constraint: string | undefined, record: string, err: unknown): WeirError {
  const db = databaseError(err)!;
  return new WeirError(
    ConnectorErrorCode.POSTGRES_CONSTRAINT_VIOLATION,
    `${record} violates constraint ${constraint ?? '(unnamed)'} of table ${table}: ${db.message}${db.detail ? ` (${db.detail})` : ''}`,
    { cause: err },
  );
}

function runsOf(operations: readonly RowOperation[]): Run[] {
  const runs: Run[] = [];
  let current: Run | undefined;
  for (const operation of operations) {
    const columns = operation.kind === 'statement' ? [] : Object.keys(operation.row);
    if (current === undefined || current.kind !== operation.kind || (operation.kind === 'upsert' && !sameColumns(current.columns, columns))) {
      current = { kind: operation.kind, columns, operations: [] };
      runs.push(current);
    }
    current.operations.push(operation);
  }
  return runs;
}

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((column, i) => column === b[i]);
}

function lastPerKey(operations: readonly RowOperation[], primaryKey: readonly string[]): Readonly<Record<string, unknown>>[] {
  const byKey = new Map<string, Readonly<Record<string, unknown>>>();
  for (const operation of operations) {
    const row = (operation as Extract<RowOperation, { row: unknown }>).row;
    const key = keyOf(row, primaryKey);
    byKey.delete(key);
    byKey.set(key, row);
  }
  return [...byKey.values()];
}

function* chunksOf<R>(items: readonly R[], size: number): Generator<readonly R[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

function parametersOf(rows: readonly Readonly<Record<string, unknown>>[], columns: readonly string[]): unknown[] {
  const params: unknown[] = [];
  for (const row of rows) for (const column of columns) params.push(row[column] ?? null);
  return params;
}

function placeholders(rows: number, width: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) tuples.push(`(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`);
  return tuples.join(', ');
}

export function upsertSql(table: string, primaryKey: readonly string[], columns: readonly string[], rows: number): string {
  const updates = columns.filter((c) => !primaryKey.includes(c)).map((c) => `${quoteIdentifier(c)} = EXCLUDED.${quoteIdentifier(c)}`);
  const onConflict = updates.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${updates.join(', ')}`;
  return `INSERT INTO ${quoteTable(table)} (${columns.map(quoteIdentifier).join(', ')}) VALUES ${placeholders(rows, columns.length)} ON CONFLICT (${primaryKey.map(quoteIdentifier).join(', ')}) ${onConflict}`;
}

export function deleteSql(table: string, primaryKey: readonly string[], rows: number): string {
  return `DELETE FROM ${quoteTable(table)} WHERE (${primaryKey.map(quoteIdentifier).join(', ')}) IN (${placeholders(rows, primaryKey.length)})`;
}
