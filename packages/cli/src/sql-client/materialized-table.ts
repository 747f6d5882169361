import type { CollectedRow } from '@weir/sql';

/**
 * A query's changelog as the table it describes (Flink's MaterializedCollectStreamResult, the
 * SQL client's `table` result mode): +I appends a row; -U removes the row equal to it and the
 * +U that follows takes its place, so an updated count changes in place; -D removes the row.
 * At most `maxRows` rows are kept (sql-client.execution.max-table-result.rows): past that
 * the oldest go, as in Flink.
 */
export class MaterializedTable {
  readonly #rows: (readonly string[])[] = [];
  /** Where the row the last -U removed was: its +U goes there. */
  #updateAt: number | undefined;
  /** Changes applied so far: a view shows whether anything came since it last drew. */
  changes = 0;

  constructor(readonly maxRows = 1_000_000) {}

  get rows(): ReadonlyArray<readonly string[]> {
    return this.#rows;
  }

  apply(row: CollectedRow): void {
    this.changes++;
    switch (row.kind) {
      case '+I':
        this.#insert(this.#rows.length, row.fields);
        return;
      case '+U':
        this.#insert(this.#updateAt ?? this.#rows.length, row.fields);
        this.#updateAt = undefined;
        return;
      case '-U':
      case '-D': {
        const at = this.#indexOf(row.fields);
        if (at >= 0) this.#rows.splice(at, 1);
        this.#updateAt = row.kind === '-U' && at >= 0 ? at : undefined;
        return;
      }
    }
  }

  #insert(at: number, fields: readonly string[]): void {
    this.#rows.splice(at, 0, fields);
    if (this.#rows.length > this.maxRows) this.#rows.splice(0, this.#rows.length - this.maxRows);
  }

  /** The last row equal to `fields`: a retraction retracts the latest of equal rows. */
  #indexOf(fields: readonly string[]): number {
    for (let i = this.#rows.length - 1; i >= 0; i--) {
      const candidate = this.#rows[i]!;
      if (candidate.length === fields.length && candidate.every((v, j) => v === fields[j])) return i;
    }
    return -1;
  }
}
