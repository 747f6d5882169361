/**
 * A window: a bucket of a key's records that a trigger fires (Flink's Window). `maxTimestamp`
 * is the largest timestamp that still belongs to it.
 */
export abstract class Window {
  /** The largest timestamp that still belongs to the window (ms). */
  abstract maxTimestamp(): number;
}

/** A time interval [start, end) (Flink's TimeWindow). */
export class TimeWindow extends Window {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {
    super();
  }

  /** The first millisecond of the window. */
  getStart(): number {
    return this.start;
  }

  /** The millisecond after the window's last. */
  getEnd(): number {
    return this.end;
  }

  /** `end - 1`. */
  override maxTimestamp(): number {
    return this.end - 1;
  }

  /** The windows overlap or touch. */
  intersects(other: TimeWindow): boolean {
    return this.start <= other.end && this.end >= other.start;
  }

  /** The smallest window containing both. */
  cover(other: TimeWindow): TimeWindow {
    return new TimeWindow(Math.min(this.start, other.start), Math.max(this.end, other.end));
  }

  /** Whether `other` is a TimeWindow with the same start and end. */
  equals(other: unknown): boolean {
    return other instanceof TimeWindow && other.start === this.start && other.end === this.end;
  }

  override toString(): string {
    return `TimeWindow{start=${this.start}, end=${this.end}}`;
  }

  /**
   * The start of the window of `windowSize` containing `timestamp`, windows being aligned to
   * `offset` (Flink's TimeWindow.getWindowStartWithOffset); right for negative timestamps too.
   */
  static getWindowStartWithOffset(timestamp: number, offset: number, windowSize: number): number {
    const remainder = (timestamp - offset) % windowSize;
    return remainder < 0 ? timestamp - (remainder + windowSize) : timestamp - remainder;
  }

  /**
   * Merges overlapping windows (Flink's TimeWindow.mergeWindows): sorted by start, each run
   * of intersecting windows becomes their cover; `merge` is told about every cover of two or more.
   */
  static mergeWindows(windows: readonly TimeWindow[], merge: (toBeMerged: TimeWindow[], mergeResult: TimeWindow) => void): void {
    const sorted = [...windows].sort((a, b) => a.start - b.start);
    let current: { cover: TimeWindow; members: TimeWindow[] } | undefined;
    const runs: { cover: TimeWindow; members: TimeWindow[] }[] = [];
    for (const window of sorted) {
      if (current !== undefined && current.cover.intersects(window)) {
        current.cover = current.cover.cover(window);
        current.members.push(window);
      } else {
        current = { cover: window, members: [window] };
        runs.push(current);
      }
    }
    for (const run of runs) if (run.members.length > 1) merge(run.members, run.cover);
  }
}

/** The one window of GlobalWindows: everything of a key, until a trigger fires it. */
export class GlobalWindow extends Window {
  static readonly #instance = new GlobalWindow();

  private constructor() {
    super();
  }

  /** The one global window. */
  static get(): GlobalWindow {
    return GlobalWindow.#instance;
  }

  /** +Infinity (Flink's Long.MAX_VALUE): the global window never ends by time. */
  override maxTimestamp(): number {
    return Number.POSITIVE_INFINITY;
  }

  override toString(): string {
    return 'GlobalWindow';
  }
}
