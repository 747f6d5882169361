import { closest, distance } from 'fastest-levenshtein';
import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';
import type { Query } from '../parse/ast.ts';
import type { Field, Rex } from '../logical/rex.ts';
import type { ScalarFunction } from '../functions/scalar-function.ts';

/** A column of a table: physical (read from the connector, at `physicalIndex` of its records), metadata or computed. */
export interface CatalogColumn extends Field {
  readonly physicalIndex?: number;
  /**
   * A metadata column: the connector's value for `key` (Kafka's `timestamp`, `partition`,
   * `offset`), at `physicalCount + index` of the source's records; VIRTUAL ones are not written.
   */
  readonly metadata?: { readonly key: string; readonly virtual: boolean; readonly index: number };
  /** A computed column's expression, over the table's physical columns (by physical index). */
  readonly computed?: Rex;
  readonly computedText?: string;
}

export interface CatalogTable {
  readonly kind: 'table';
  readonly name: string;
  /** In declared order; a scan's row has one field per column, in this order. */
  readonly columns: readonly CatalogColumn[];
  readonly physicalCount: number;
  /** The event-time attribute and its watermark expression (over the scan's row). */
  readonly watermark?: { readonly column: number; readonly expr: Rex; readonly text: string };
  readonly primaryKey?: readonly string[];
  /** PARTITIONED BY's columns (physical), in order. */
  readonly partitionKeys?: readonly string[];
  readonly options: Readonly<Record<string, string>>;
}

export interface CatalogView {
  readonly kind: 'view';
  readonly name: string;
  readonly query: Query;
  readonly text: string;
  readonly fields: readonly Field[];
}

export type CatalogEntry = CatalogTable | CatalogView;

/** The tables, views and user-defined functions of a table environment (Flink's in-memory default catalog). */
export class Catalog {
  readonly #entries = new Map<string, CatalogEntry>();
  /** By upper-case name: function names are case-insensitive in Flink SQL. */
  readonly #functions = new Map<string, ScalarFunction>();

  addFunction(name: string, fn: ScalarFunction, pos: SqlPosition | undefined, ifNotExists = false): void {
    const key = name.toUpperCase();
    if (this.#functions.has(key)) {
      if (ifNotExists) return;
      throw new SqlError(SqlErrorCode.SQL_TABLE_EXISTS, `Function ${name} already exists in the catalog default_catalog.default_database`, pos);
    }
    this.#functions.set(key, fn);
  }

  /** A user-defined function by its (upper-case) name in a call. */
  userFunction(name: string): ScalarFunction | undefined {
    return this.#functions.get(name);
  }

  functionNames(): string[] {
    return [...this.#functions.keys()];
  }

  add(entry: CatalogEntry, pos: SqlPosition | undefined, ifNotExists = false): void {
    if (this.#entries.has(entry.name)) {
      if (ifNotExists) return;
      throw new SqlError(SqlErrorCode.SQL_TABLE_EXISTS, `Table or view ${entry.name} already exists in the catalog default_catalog.default_database`, pos);
    }
    this.#entries.set(entry.name, entry);
  }

  names(): string[] {
    return [...this.#entries.keys()].sort();
  }

  get(name: string, pos: SqlPosition | undefined): CatalogEntry {
    const entry = this.#entries.get(name);
    if (entry !== undefined) return entry;
    throw new SqlError(SqlErrorCode.SQL_UNKNOWN_TABLE, `Object '${name}' not found${suggest(name, this.names())}`, pos);
  }

  table(name: string, pos: SqlPosition | undefined): CatalogTable {
    const entry = this.get(name, pos);
    if (entry.kind !== 'table') throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${name} is a view; INSERT INTO takes a table`, pos);
    return entry;
  }
}

/** "; did you mean 'x'?" with the nearest of `names` (a different case first), or nothing if none is near. */
export function suggest(name: string, names: readonly string[]): string {
  if (names.length === 0) return '';
  const sameCase = names.find((n) => n.toLowerCase() === name.toLowerCase());
  const nearest = sameCase ?? closest(name, [...names]);
  // Case-insensitive distance: Flink identifiers are case-sensitive, typos are not.
  const far = sameCase === undefined && distance(name.toLowerCase(), nearest.toLowerCase()) > Math.max(2, Math.floor(name.length / 2));
  return far ? `; known: ${names.slice(0, 10).join(', ')}` : `; did you mean '${nearest}'?`;
}

/** The columns an INSERT writes, in order: physical ones and non-VIRTUAL metadata ones (Flink's persisted columns). */
export function sinkColumns(table: CatalogTable): CatalogColumn[] {
  return table.columns.filter((c) => c.computed === undefined && c.metadata?.virtual !== true);
}

/** The metadata columns in declared order: a source's record has their values after the physical ones. */
export function metadataColumns(table: CatalogTable): CatalogColumn[] {
  return table.columns.filter((c) => c.metadata !== undefined).sort((a, b) => a.metadata!.index - b.metadata!.index);
}
