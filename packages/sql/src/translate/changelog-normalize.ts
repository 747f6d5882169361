import { KeyedProcessFunction, Types, ValueStateDescriptor, type Collector, type KeyedProcessContext, type ValueState } from '@weir/api';
import type { Row } from '../row.ts';

/**
 * An upsert source's rows (+U: the key's row now, -D: the key is gone) as a retract changelog,
 * keyed by the primary key (Flink's ChangelogNormalize, its ProcTimeDeduplicateKeepLastRow on a
 * changelog): the key's last row in keyed state; the first +U of a key is +I, a later one -U
 * of the last row then +U (nothing when the row is the same), a -D deletes the last row
 * (nothing for a key without one).
 */
export class ChangelogNormalizeFunction extends KeyedProcessFunction<string, Row, Row> {
  #last!: ValueState<unknown[]>;

  override open(): void {
    this.#last = this.getRuntimeContext().getState(new ValueStateDescriptor<unknown[]>('last-row', Types.GENERIC<unknown[]>()));
  }

  processElement(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const last = this.#last.value() ?? undefined;
    if (row.kind === '-D' || row.kind === '-U') {
      if (last === undefined) return;
      out.collect({ kind: '-D', fields: last });
      this.#last.clear();
      return;
    }
    const fields = [...row.fields];
    if (last === undefined) out.collect({ kind: '+I', fields });
    else {
      if (sameRow(last, fields)) return;
      out.collect({ kind: '-U', fields: last });
      out.collect({ kind: '+U', fields });
    }
    this.#last.update(fields);
  }
}

function sameRow(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
