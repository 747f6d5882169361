import type { AnySource, DataStream } from '@weir/api';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Row } from '../row.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import { suggest } from '../validate/catalog.ts';
import type { Field } from '../logical/rex.ts';

/** A table's connector as a source: its Source and how one of its records becomes the table's physical row. */
export interface TableSource {
  readonly source: AnySource<unknown>;
  readonly toRow: (record: unknown) => unknown[];
}

/**
 * A table connector keyed by 'connector' = '...' in WITH (Flink's DynamicTableFactory).
 * `accepts` is the changelog a sink takes: 'insert-only' refuses updating queries at planning.
 */
export interface TableFactory {
  readonly identifier: string;
  /** The options it knows besides 'connector' (a prefix ends with '.'), for the unknown-option error. */
  readonly options: readonly string[];
  readonly accepts?: 'insert-only' | 'all';
  createSource?(table: CatalogTable): TableSource;
  /** Attaches the sink to a stream of the query's rows (fields as given); returns nothing, uids from `uid`. */
  attachSink?(table: CatalogTable, fields: readonly Field[], rows: DataStream<Row>, uid: (name: string) => string): void;
}

export function requireOption(table: CatalogTable, key: string, example: string): string {
  const value = table.options[key];
  if (value === undefined) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}' (connector '${table.options.connector}') needs the option '${key}', as in '${key}' = '${example}'`);
  return value;
}

export function numberOption(table: CatalogTable, key: string, fallback: number): number {
  const value = table.options[key];
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': option '${key}' takes a number >= 0, got '${value}'`);
  return n;
}

/** Refuses options the connector does not know, suggesting the nearest. */
export function checkOptions(table: CatalogTable, factory: TableFactory): void {
  for (const key of Object.keys(table.options)) {
    if (key === 'connector') continue;
    if (factory.options.some((o) => (o.endsWith('.') ? key.startsWith(o) : key === o))) continue;
    throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': connector '${factory.identifier}' has no option '${key}'${suggest(key, factory.options.filter((o) => !o.endsWith('.')))}`);
  }
}
