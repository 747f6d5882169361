interface Run<O, R> {
  readonly owner: O;
  readonly records: readonly R[];
  next: number;
}

/**
 * The records a reader fetched ahead, first in first out, kept as the runs the fetches
 * returned (one per partition and fetch) with a read index into the first. One flat array
 * with `shift()` would copy the rest of it for every record once it is long (V8 moves an array
 * of more than a few thousand elements instead of trimming it), which made emitting a large
 * fetch quadratic.
 */
export class ReadAheadQueue<O, R> {
  readonly #runs: Run<O, R>[] = [];
  #size = 0;

  /** Records queued. */
  get size(): number {
    return this.#size;
  }

  /** Who the record `shift` returns next belongs to; undefined when the queue is empty. */
  get nextOwner(): O | undefined {
    return this.#runs[0]?.owner;
  }

  push(owner: O, records: readonly R[]): void {
    if (records.length === 0) return;
    this.#runs.push({ owner, records, next: 0 });
    this.#size += records.length;
  }

  shift(): R | undefined {
    const run = this.#runs[0];
    if (run === undefined) return undefined;
    const record = run.records[run.next++]!;
    this.#size--;
    // The runs are few (a fetch's partitions), so shifting them is cheap.
    if (run.next === run.records.length) this.#runs.shift();
    return record;
  }
}
