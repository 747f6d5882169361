import type { CatalogTable } from '../validate/catalog.ts';
import type { SqlType } from '../validate/types.ts';
import type { Field, Rex } from './rex.ts';

/** A window table-valued function's windows, in milliseconds. */
export interface WindowSpec {
  readonly fn: 'TUMBLE' | 'HOP' | 'CUMULATE';
  readonly size: number;
  /** HOP's slide. */
  readonly slide?: number;
  /** CUMULATE's step. */
  readonly step?: number;
}

export interface AggCall {
  readonly fn: 'COUNT' | 'SUM' | 'MIN' | 'MAX' | 'AVG';
  /** The input field aggregated; none for COUNT(*). */
  readonly arg?: number;
  readonly distinct: boolean;
  readonly type: SqlType;
  readonly name: string;
}

export type WindowKey = { readonly kind: 'field'; readonly index: number } | { readonly kind: 'window_start' } | { readonly kind: 'window_end' };

/**
 * The relational plan (Calcite's RelNode, in Flink's logical operators): every node has the
 * fields of the rows it produces.
 */
export type LogicalNode =
  | { readonly kind: 'scan'; readonly table: CatalogTable; readonly fields: readonly Field[] }
  /** Projection and filter in one (Flink's Calc): `condition` over the input, then `projects`. */
  | { readonly kind: 'calc'; readonly input: LogicalNode; readonly projects: readonly Rex[]; readonly condition?: Rex; readonly fields: readonly Field[] }
  /** TUMBLE / HOP / CUMULATE: the input's fields plus window_start, window_end and window_time, a row per window. */
  | { readonly kind: 'windowTvf'; readonly input: LogicalNode; readonly window: WindowSpec; readonly timeIndex: number; readonly fields: readonly Field[] }
  /** GROUP BY without windows: the group keys (input fields), then one field per aggregate. */
  | { readonly kind: 'aggregate'; readonly input: LogicalNode; readonly groupKeys: readonly number[]; readonly aggs: readonly AggCall[]; readonly fields: readonly Field[] }
  /** GROUP BY window_start, window_end, ... over a window TVF: keys in their GROUP BY order, then the aggregates. */
  | { readonly kind: 'windowAggregate'; readonly input: LogicalNode; readonly window: WindowSpec; readonly keys: readonly WindowKey[]; readonly aggs: readonly AggCall[]; readonly fields: readonly Field[] };

