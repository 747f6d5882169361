import type { Client } from 'pg';
import { quoteIdentifier, quoteTable } from '../postgres-connection.ts';
import type { CapturedTable } from './cdc-catalog.ts';

/** Rows per query: large enough that a query's round trip is small beside its rows, small enough to keep memory flat. */
const CHUNK_ROWS = 2_000;

/**
 * Reads a table in primary key order, a chunk at a time (keyset pagination: rows after the
 * last key read), inside the caller's REPEATABLE READ transaction, so every chunk sees the same
 * snapshot and a restored reader continues after the last key it emitted.
 */
export class SnapshotChunks {
  #done = false;

  constructor(
    private readonly client: Client,
    private readonly table: CapturedTable,
    private lastKey: readonly unknown[] | null,
  ) {}

  get done(): boolean {
    return this.#done;
  }

  /** The next rows after the last key read (empty once the table is read to its end). */
  async next(): Promise<Record<string, unknown>[]> {
    if (this.#done) return [];
    const key = this.table.primaryKey.map(quoteIdentifier).join(', ');
    const after = this.lastKey === null ? '' : ` WHERE (${key}) > (${this.lastKey.map((_, i) => `$${i + 1}`).join(', ')})`;
    const { rows } = await this.client.query<Record<string, unknown>>(`SELECT * FROM ${quoteTable(this.table.name)}${after} ORDER BY ${key} LIMIT ${CHUNK_ROWS}`, (this.lastKey ?? []) as unknown[]);
    if (rows.length < CHUNK_ROWS) this.#done = true;
    const last = rows[rows.length - 1];
    if (last !== undefined) this.lastKey = this.table.primaryKey.map((column) => last[column]);
    return rows;
  }
}
