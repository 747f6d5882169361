import {
  Boundedness,
  InputStatus,
  KeyedProcessFunction,
  ListStateDescriptor,
  Types,
  ValueStateDescriptor,
  type CheckpointedFunction,
  type Collector,
  type Committer,
  type FunctionInitializationContext,
  type KeyedProcessContext,
  type ListState,
  type MapFunction,
  type Sink,
  type SinkWriter,
  type Source,
  type ValueState,
} from '@weir/api';

/** How far the readers of a ListSource may go: each reader emits its share up to `limit` records, then waits (or ends, once `bounded`). */
export class SourceControl {
  #waiters: (() => void)[] = [];

  constructor(
    public limit: number,
    public bounded = false,
  ) {}

  release(limit: number, bounded = this.bounded): void {
    this.limit = limit;
    this.bounded = bounded;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  changed(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/** Subtask s reads items s, s + p, s + 2p...; its position (records emitted) is its checkpointed state. */
export function listSource<T>(items: readonly T[], control: SourceControl): Source<T> {
  return {
    boundedness: Boundedness.CONTINUOUS_UNBOUNDED,
    createReader(ctx, restored) {
      const share = items.filter((_, i) => i % ctx.parallelism === ctx.subtaskIndex);
      let position = (restored?.[0] as number | undefined) ?? 0;
      return {
        pollNext(output) {
          if (position >= share.length) return control.bounded ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
          if (position >= control.limit) return InputStatus.NOTHING_AVAILABLE;
          output.collect(share[position++]!);
          return InputStatus.MORE_AVAILABLE;
        },
        isAvailable: () => control.changed(),
        snapshotState: () => position,
      };
    },
  };
}

/** Counts the records it maps in operator list state 'processed'; reports its count when closed. */
export class CountingMap<T> implements MapFunction<T, T>, CheckpointedFunction {
  #count = 0;
  #state!: ListState<number>;

  constructor(private readonly closedWith: number[]) {}

  initializeState(context: FunctionInitializationContext): void {
    this.#state = context.getOperatorStateStore().getListState(new ListStateDescriptor('processed', Types.NUMBER));
    if (context.isRestored()) for (const n of this.#state.get()) this.#count += n;
  }

  snapshotState(): void {
    this.#state.update([this.#count]);
  }

  map(value: T): T {
    this.#count++;
    return value;
  }

  close(): void {
    this.closedWith.push(this.#count);
  }
}

export class CountPerKey extends KeyedProcessFunction<string, string, [string, number]> {
  #count!: ValueState<number>;

  override open(): void {
    this.#count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER));
  }

  override processElement(_value: string, ctx: KeyedProcessContext<string>, out: Collector<[string, number]>): void {
    const next = (this.#count.value() ?? 0) + 1;
    this.#count.update(next);
    out.collect([ctx.getCurrentKey(), next]);
  }
}

interface Transaction<T> {
  readonly id: string;
  readonly records: readonly T[];
}

/**
 * A two-phase-commit sink: writers collect records into a transaction that prepareCommit
 * closes; the committer makes a transaction's records visible once (by transaction ID).
 */
export class TransactionalSink<T> implements Sink<T> {
  /** Records made visible, in commit order. */
  readonly committed: T[] = [];
  readonly commits: string[][] = [];
  /** Records written per attempt, committed or not. */
  readonly written = new Map<number, number>();
  readonly restoredWith: (readonly unknown[] | undefined)[] = [];
  /** "<subtask> flush(<endOfInput>)", in call order. */
  readonly flushes: string[] = [];
  readonly #done = new Set<string>();

  createWriter(ctx: { subtaskIndex: number; attemptNumber: number }, restoredState?: readonly unknown[]): SinkWriter<T> {
    this.restoredWith.push(restoredState);
    let open: T[] = [];
    let prepared = (restoredState?.[0] as { prepared: number } | undefined)?.prepared ?? 0;
    return {
      write: (record) => {
        open.push(record);
        this.written.set(ctx.attemptNumber, (this.written.get(ctx.attemptNumber) ?? 0) + 1);
      },
      flush: (endOfInput) => void this.flushes.push(`${ctx.subtaskIndex} flush(${endOfInput})`),
      prepareCommit: (checkpointId) => {
        if (open.length === 0) return [];
        const txn: Transaction<T> = { id: `${ctx.attemptNumber}-${ctx.subtaskIndex}-${checkpointId}-${prepared++}`, records: open };
        open = [];
        return [txn];
      },
      snapshotState: () => ({ prepared }),
      close: () => {},
    };
  }

  createCommitter(): Committer<unknown> {
    return {
      commit: (committables) => {
        const txns = committables as Transaction<T>[];
        this.commits.push(txns.map((t) => t.id));
        for (const txn of txns) {
          if (this.#done.has(txn.id)) continue;
          this.#done.add(txn.id);
          this.committed.push(...txn.records);
        }
      },
    };
  }

  writtenBy(attempt: number): number {
    return this.written.get(attempt) ?? 0;
  }
}

/** Per key, the counts a keyed count must emit: 1..n for a key seen n times. */
export function expectedCountRecords(words: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  const records: [string, number][] = [];
  for (const w of words) {
    const n = (counts.get(w) ?? 0) + 1;
    counts.set(w, n);
    records.push([w, n]);
  }
  return sortRecords(records);
}

export function sortRecords(records: readonly [string, number][]): [string, number][] {
  return [...records].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));
}
