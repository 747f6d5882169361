import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';

/** A row-level change as the sink applies it. */
export type RowOperation =
  /** INSERT ... ON CONFLICT (primary key) DO UPDATE: idempotent, so a replay after a failure does no harm. */
  | { readonly kind: 'upsert'; readonly row: Readonly<Record<string, unknown>> }
  /** DELETE by primary key; `row` holds at least the key columns. Deleting a missing row is no error. */
  | { readonly kind: 'delete'; readonly row: Readonly<Record<string, unknown>> }
  /** The user's SQL statement with the binder's parameters. */
  | { readonly kind: 'statement'; readonly params: readonly unknown[] };

/**
 * What the sink does with a record (Flink's JdbcSink shapes, plus changelogs):
 * - `statement`: runs `sql` with `binder(record)` as its $1, $2... parameters;
 * - `upsert`: inserts `rowOf(record)` into `table`, updating the row of the same primary key;
 * - `changelog`: applies a CDC change event (op c/r/u: upsert `after`; op d: delete `before`'s key).
 */
export type SinkMode<T> =
  | { readonly kind: 'statement'; readonly sql: string; readonly binder: (record: T) => readonly unknown[] }
  | { readonly kind: 'upsert'; readonly table: string; readonly primaryKey: readonly string[]; readonly rowOf: (record: T) => Readonly<Record<string, unknown>> }
  | { readonly kind: 'changelog'; readonly table: string; readonly primaryKey: readonly string[] };

/** A change event as the changelog mode takes it: Flink CDC's (Debezium's) shape. */
export interface ChangelogRecord {
  readonly op: string;
  readonly before?: Readonly<Record<string, unknown>> | null;
  readonly after?: Readonly<Record<string, unknown>> | null;
}

export function toOperation<T>(mode: SinkMode<T>, record: T): RowOperation {
  switch (mode.kind) {
    case 'statement': {
      const params = mode.binder(record);
      if (!Array.isArray(params)) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `the PostgresSink's statement binder must return the statement's parameters as an array, got ${JSON.stringify(params)}`);
      return { kind: 'statement', params };
    }
    case 'upsert':
      return { kind: 'upsert', row: requireRow(mode.rowOf(record), mode.primaryKey, mode.table) };
    case 'changelog':
      return changelogOperation(record as ChangelogRecord, mode.primaryKey, mode.table);
  }
}

function changelogOperation(event: ChangelogRecord, primaryKey: readonly string[], table: string): RowOperation {
  const op = event?.op;
  if (op === 'c' || op === 'r' || op === 'u') return { kind: 'upsert', row: requireRow(event.after, primaryKey, table) };
  if (op === 'd') return { kind: 'delete', row: requireRow(event.before, primaryKey, table) };
  throw new WeirError(
    ConnectorErrorCode.INVALID_ARGUMENT,
    `a changelog PostgresSink into ${table} takes change events { op: 'c' | 'r' | 'u' | 'd', before, after }, got op ${JSON.stringify(op)} in ${JSON.stringify(event)?.slice(0, 200)}`,
  );
}

function requireRow(row: unknown, primaryKey: readonly string[], table: string): Readonly<Record<string, unknown>> {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) {
    throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `a PostgresSink into ${table} needs each row as an object of column values, got ${JSON.stringify(row)}`);
  }
  const missing = primaryKey.filter((column) => (row as Record<string, unknown>)[column] === undefined);
  if (missing.length > 0) {
    throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `a row for ${table} lacks its primary key column(s) ${missing.join(', ')}: ${JSON.stringify(row).slice(0, 200)}`);
  }
  return row as Readonly<Record<string, unknown>>;
}

/** The primary key of a row, for messages and for keeping one operation per key in a batch. */
export function keyOf(row: Readonly<Record<string, unknown>>, primaryKey: readonly string[]): string {
  return primaryKey.map((column) => `${column}=${JSON.stringify(row[column])}`).join(', ');
}
