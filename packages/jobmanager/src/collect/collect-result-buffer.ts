/** Where a collect sink runs: the sender of its last rows, which its credit goes back to. */
export interface CollectSender {
  readonly taskManagerId: string;
  readonly attempt: number;
  readonly vertexId: string;
  readonly subtaskIndex: number;
  readonly operatorId: string;
}

/** Rows a job's buffer holds at most (taken and sent on credit): the JobManager's memory per running query. */
export const COLLECT_BUFFER_ROWS = 2_048;

/**
 * A job's collected rows on the JobManager (Flink's CollectSinkOperatorCoordinator with its
 * bounded buffer): the collect sink may send only as many rows as it was granted credit for,
 * and credit is granted only for room the buffer has, so rows buffered plus rows granted never
 * exceed `capacity`. Taking rows makes room and grants again. Credit goes out in chunks of at
 * least a quarter of the buffer, not a message per row taken.
 *
 * A new attempt of the job (failover) starts afresh: credit granted to the old sink is void,
 * rows from it that arrive late are dropped, and the new sink registers for its own credit.
 */
export class CollectResultBuffer {
  #rows: unknown[] = [];
  #outstanding = 0;
  #sender: CollectSender | undefined;
  readonly #waiters = new Set<() => void>();

  constructor(
    private readonly grant: (sender: CollectSender, credits: number) => void,
    readonly capacity = COLLECT_BUFFER_ROWS,
  ) {}

  get size(): number {
    return this.#rows.length;
  }

  /** Rows (possibly none: a registration) from the collect sink at `sender`. */
  receive(sender: CollectSender, rows: readonly unknown[]): void {
    const current = this.#sender;
    if (current !== undefined && sender.attempt < current.attempt) return;
    if (current === undefined || sender.attempt > current.attempt) this.#outstanding = 0;
    this.#sender = sender;
    this.#rows.push(...rows);
    this.#outstanding = Math.max(0, this.#outstanding - rows.length);
    this.#grantRoom();
    if (rows.length > 0) this.#wake();
  }

  /** Takes up to `max` rows, oldest first, and grants the room they leave. */
  take(max: number): unknown[] {
    const rows = this.#rows.splice(0, max);
    if (rows.length > 0) this.#grantRoom();
    return rows;
  }

  /** Resolves once rows are buffered, `wakeAll` is called, or after `timeoutMs`. */
  whenRows(timeoutMs: number): Promise<void> {
    if (this.#rows.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
    });
  }

  /** Wakes every waiting fetch (the job changed status). */
  wakeAll(): void {
    this.#wake();
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #grantRoom(): void {
    const sender = this.#sender;
    const room = this.capacity - this.#rows.length - this.#outstanding;
    if (sender === undefined || room < Math.max(1, Math.floor(this.capacity / 4))) return;
    this.#outstanding += room;
    this.grant(sender, room);
  }
}
