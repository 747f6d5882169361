import { KeyedProcessFunction, Types, ValueStateDescriptor, type Collector, type KeyedProcessContext, type ValueState } from '@weir/api';
import type { SortKey } from '../logical/nodes.ts';
import type { Row } from '../row.ts';

/** SQL ordering of one value: nulls first ascending and last descending (Flink's default), numbers, bigints and strings by value. */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

export function rowComparator(keys: readonly SortKey[]): (a: readonly unknown[], b: readonly unknown[]) => number {
  return (a, b) => {
    for (const key of keys) {
      const c = compareValues(a[key.index] ?? null, b[key.index] ?? null);
      if (c !== 0) return key.desc ? -c : c;
    }
    return 0;
  };
}

/**
 * Top-N over an insert-only input (Flink's AppendOnlyTopNFunction): per partition key, the N
 * first rows in ORDER BY order in keyed state (a row equal to one already there ranks after
 * it). A new row that makes the top N changes some ranks; each rank whose row changed emits
 * -U of the old row and +U of the new one (+I where the rank was empty), the row number last.
 * Without the row number in the output (`withRowNumber` false), only the row that left
 * (-D) and the one that came in (+I). Deduplication is the same with N = 1, ordered by a time
 * attribute: ascending keeps the first row, descending the last.
 */
export class AppendRankFunction extends KeyedProcessFunction<string, Row, Row> {
  #top!: ValueState<Array<readonly unknown[]>>;
  readonly #compare: (a: readonly unknown[], b: readonly unknown[]) => number;

  constructor(
    orderKeys: readonly SortKey[],
    private readonly limit: number,
    private readonly withRowNumber: boolean,
  ) {
    super();
    this.#compare = rowComparator(orderKeys);
  }

  override open(): void {
    this.#top = this.getRuntimeContext().getState(new ValueStateDescriptor<Array<readonly unknown[]>>('top-n', Types.GENERIC<Array<readonly unknown[]>>()));
  }

  processElement(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const before = this.#top.value() ?? [];
    let at = before.length;
    while (at > 0 && this.#compare(before[at - 1]!, row.fields) > 0) at--;
    if (at >= this.limit) return;
    const after = [...before.slice(0, at), row.fields, ...before.slice(at)].slice(0, this.limit);
    this.#top.update(after);
    if (!this.withRowNumber) {
      if (before.length === this.limit) out.collect({ kind: '-D', fields: [...before[this.limit - 1]!, this.limit] });
      out.collect({ kind: '+I', fields: [...row.fields, at + 1] });
      return;
    }
    for (let rank = at; rank < after.length; rank++) {
      const old = before[rank];
      if (old !== undefined) out.collect({ kind: '-U', fields: [...old, rank + 1] });
      out.collect({ kind: old === undefined ? '+I' : '+U', fields: [...after[rank]!, rank + 1] });
    }
  }
}
