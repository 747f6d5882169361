import type { AnySource, DataStream } from '@weir/api';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Row, RowKind } from '../row.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import { metadataColumns, suggest } from '../validate/catalog.ts';
import { typeToString } from '../validate/types.ts';
import type { Field } from '../logical/rex.ts';

/**
 * A table's connector as a source: its Source and how one of its records becomes the table's
 * physical row, followed by the values of its metadata columns (in their declared order).
 */
export interface TableSource {
  readonly source: AnySource<unknown>;
  /** undefined: the source dropped the record itself (a pushed filter it applied). */
  readonly toRow: (record: unknown) => unknown[] | undefined;
  /**
   * An upsert source (upsert-kafka): each record's kind, '+U' (the key's new row) or '-D' (the
   * key is gone). The scan makes a retract changelog of them by primary key (ChangelogNormalize).
   */
  readonly kindOf?: (record: unknown) => RowKind;
}

/**
 * What the plan pushed into a scan, for a source that can use it (Flink's
 * SupportsProjectionPushDown, SupportsFilterPushDown): the physical columns read (the others
 * may be left NULL), and a filter over the physical row, with the columns it reads (the scan
 * applies it again, so a source may skip it).
 */
export interface SourcePushdown {
  readonly columns: ReadonlySet<number>;
  readonly filter?: PushedFilter & {
    /** The filter's AND terms: a row passes only if it passes each, so a source may test the ones it can test early. */
    readonly conjuncts: readonly PushedFilter[];
  };
}

/** A test of the physical row, and the physical columns it reads. */
export interface PushedFilter {
  readonly reads: ReadonlySet<number>;
  readonly test: (physical: unknown[]) => boolean;
}

/** A metadata key a connector offers (Flink's SupportsReadingMetadata / SupportsWritingMetadata). */
export interface MetadataKey {
  /** The type roots a column of it may have. */
  readonly types: readonly string[];
  readonly writable: boolean;
}

/**
 * A table connector keyed by 'connector' = '...' in WITH (Flink's DynamicTableFactory).
 * `accepts` is the changelog a sink takes: 'insert-only' refuses updating queries at planning.
 */
export interface TableFactory {
  readonly identifier: string;
  /** The options it knows besides 'connector' (a prefix ends with '.'), for the unknown-option error. */
  readonly options: readonly string[];
  /** Flink's options of this connector that Weir does not implement (a prefix ends with '.'): refused with SQL_UNSUPPORTED, not as unknown. */
  readonly unsupportedOptions?: readonly string[];
  /** Whether a sink of it takes PARTITIONED BY (Flink's SupportsPartitioning). */
  readonly partitioned?: boolean;
  readonly accepts?: 'insert-only' | 'all';
  /** What a scan of it produces: 'upsert' (by PRIMARY KEY) is a retract changelog after normalization. */
  readonly produces?: 'insert-only' | 'upsert';
  /** The metadata columns it offers, by key. */
  readonly metadata?: Readonly<Record<string, MetadataKey>>;
  createSource?(table: CatalogTable, pushdown?: SourcePushdown): TableSource;
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
    if (factory.unsupportedOptions?.some((o) => (o.endsWith('.') ? key.startsWith(o) : key === o))) {
      throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `Table '${table.name}': the ${factory.identifier} connector's option '${key}' is not supported by Weir's SQL yet`);
    }
    if (factory.options.some((o) => (o.endsWith('.') ? key.startsWith(o) : key === o))) continue;
    throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': connector '${factory.identifier}' has no option '${key}'${suggest(key, factory.options.filter((o) => !o.endsWith('.')))}`);
  }
}

/** Refuses metadata columns the connector does not offer, of another type, or not VIRTUAL when it cannot write them (for a sink). */
export function checkMetadata(table: CatalogTable, factory: TableFactory, role: 'source' | 'sink'): void {
  const offered = factory.metadata ?? {};
  for (const column of metadataColumns(table)) {
    const { key, virtual } = column.metadata!;
    const spec = offered[key];
    if (spec === undefined) {
      const keys = Object.keys(offered);
      throw new SqlError(
        SqlErrorCode.SQL_INVALID_OPTION,
        `Invalid metadata key '${key}' in column '${column.name}' of table '${table.name}': connector '${factory.identifier}' ${keys.length === 0 ? 'has no metadata' : `offers ${keys.map((k) => `'${k}'`).join(', ')}${suggest(key, keys)}`}`,
      );
    }
    if (!spec.types.includes(column.type.root)) {
      throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Metadata column '${column.name}' of table '${table.name}' is ${typeToString(column.type)}, but metadata '${key}' of connector '${factory.identifier}' is ${spec.types.join(' or ')}`);
    }
    if (role === 'sink' && !virtual && !spec.writable) {
      throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Metadata '${key}' of connector '${factory.identifier}' can only be read: declare column '${column.name}' of table '${table.name}' as METADATA${key === column.name ? '' : ` FROM '${key}'`} VIRTUAL to write to the table`);
    }
  }
}
