interface Run<R> {
  readonly records: readonly R[];
  next: number;
}

/** Records one owner (partition) may give in a row before the next owner with queued records has its turn. */
export const RECORDS_PER_TURN = 500;

/**
 * The records a reader fetched ahead, kept as the runs the fetches returned (one per partition
 * and fetch) with a read index into each: one flat array with `shift()` would copy the rest of
 * it for every record once it is long (V8 moves an array of more than a few thousand elements
 * instead of trimming it), which made emitting a large fetch quadratic.
 *
 * Each owner's records come out in the order they were pushed; owners take turns of at most
 * RECORDS_PER_TURN records (a run that ends also ends the turn), so a fetch that brought one
 * partition's backlog (tens of thousands of records) does not hold back every other
 * partition's records, and with them the reader's event time, until it is emitted.
 */
export class ReadAheadQueue<O, R> {
  readonly #runs = new Map<O, Run<R>[]>();
  /** Owners with queued records, the one whose turn it is first. */
  readonly #turns: O[] = [];
  /** The runs of `#turns[0]`, looked up once per turn rather than per record. */
  #current: Run<R>[] | undefined;
  #taken = 0;
  #size = 0;

  /** Records queued. */
  get size(): number {
    return this.#size;
  }

  /** Who the record `shift` returns next belongs to; undefined when the queue is empty. */
  get nextOwner(): O | undefined {
    return this.#turns[0];
  }

  push(owner: O, records: readonly R[]): void {
    if (records.length === 0) return;
    const runs = this.#runs.get(owner);
    if (runs === undefined) {
      this.#runs.set(owner, [{ records, next: 0 }]);
      this.#turns.push(owner);
    } else {
      runs.push({ records, next: 0 });
    }
    this.#size += records.length;
  }

  shift(): R | undefined {
    const owner = this.#turns[0];
    if (owner === undefined) return undefined;
    const runs = (this.#current ??= this.#runs.get(owner)!);
    const run = runs[0]!;
    const record = run.records[run.next++]!;
    this.#size--;
    this.#taken++;
    const runEnded = run.next === run.records.length;
    // Owners and their runs are few (a fetch's partitions), so shifting these arrays is cheap.
    if (runEnded) runs.shift();
    if (runs.length === 0) {
      this.#runs.delete(owner);
      this.#turns.shift();
      this.#endTurn();
    } else if (runEnded || this.#taken >= RECORDS_PER_TURN) {
      this.#turns.push(this.#turns.shift()!);
      this.#endTurn();
    }
    return record;
  }

  #endTurn(): void {
    this.#taken = 0;
    this.#current = undefined;
  }
}
