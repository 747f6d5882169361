/**
 * The keyed check behind the enrichment jobs of async-io.test.ts and redis-async.test.ts
 * (bundled into each): writes `i v in-order` when i follows the index it saw last (its own
 * keyed state, so a restore agrees with it), else `OUT-OF-ORDER after <last>`.
 */
import { KeyedProcessFunction, Types, ValueStateDescriptor, type Collector, type KeyedProcessContext, type ValueState } from '@weir/api';

/** An index and what the lookup gave for it. */
export interface Enriched {
  i: number;
  v: number;
}

/** Checks, under one key, that the indexes come in order. */
export class CheckOrder extends KeyedProcessFunction<string, Enriched, string> {
  private last!: ValueState<number>;
  override open(): void {
    this.last = this.getRuntimeContext().getState(new ValueStateDescriptor('last', Types.NUMBER));
  }
  processElement(e: Enriched, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const last = this.last.value() ?? -1;
    this.last.update(e.i);
    out.collect(`${e.i} ${e.v} ${e.i === last + 1 ? 'in-order' : `OUT-OF-ORDER after ${last}`}`);
  }
}
