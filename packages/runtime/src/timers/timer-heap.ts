/** A registered timer as the timer service keeps it in memory. */
export interface TimerEntry {
  readonly timestamp: number;
  readonly key: unknown;
  readonly namespace: string;
  /** The key as keyed state normalizes it: with timestamp and namespace, what makes a timer unique in its domain. */
  readonly normalizedKey: unknown;
  /** The key's key group, so firing the timer makes its key current without hashing it again. */
  readonly keyGroup: number;
  /** Cleared when the timer is deleted; the heap drops dead entries when they reach the top. */
  live: boolean;
  /** Registration order, so timers of equal timestamps fire in the order they were registered. */
  readonly sequence: number;
}

/**
 * The timers of one time domain in timestamp order: a binary min-heap. Deleting a timer only
 * marks its entry dead (deletes are rare next to registrations and firings); dead entries
 * are skipped at the top and compacted away when they outnumber the live ones.
 */
export class TimerHeap {
  readonly #heap: TimerEntry[] = [];
  #dead = 0;

  get size(): number {
    return this.#heap.length - this.#dead;
  }

  push(entry: TimerEntry): void {
    const heap = this.#heap;
    heap.push(entry);
    this.#up(heap.length - 1);
  }

  /** The earliest live timer, without removing it. */
  peek(): TimerEntry | undefined {
    this.#dropDeadTop();
    return this.#heap[0];
  }

  /** Removes and returns the earliest live timer. */
  poll(): TimerEntry | undefined {
    this.#dropDeadTop();
    return this.#removeTop();
  }

  /** The entry was marked dead. */
  deleted(): void {
    this.#dead++;
    if (this.#dead > 1024 && this.#dead > this.#heap.length / 2) this.#compact();
  }

  #dropDeadTop(): void {
    while (this.#heap.length !== 0 && !this.#heap[0]!.live) {
      this.#removeTop();
      this.#dead--;
    }
  }

  #removeTop(): TimerEntry | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length !== 0 && last !== undefined) {
      heap[0] = last;
      this.#down(0);
    }
    return top;
  }

  #compact(): void {
    const live = this.#heap.filter((e) => e.live);
    this.#heap.length = 0;
    this.#dead = 0;
    for (const entry of live) this.push(entry);
  }

  #up(index: number): void {
    const heap = this.#heap;
    const entry = heap[index]!;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = entry;
  }

  #down(index: number): void {
    const heap = this.#heap;
    const entry = heap[index]!;
    const half = heap.length >> 1;
    while (index < half) {
      let child = 2 * index + 1;
      const right = child + 1;
      if (right < heap.length && before(heap[right]!, heap[child]!)) child = right;
      if (!before(heap[child]!, entry)) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = entry;
  }
}

function before(a: TimerEntry, b: TimerEntry): boolean {
  return a.timestamp < b.timestamp || (a.timestamp === b.timestamp && a.sequence < b.sequence);
}
