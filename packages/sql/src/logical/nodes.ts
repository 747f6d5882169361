import type { SqlPosition } from '../errors.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import type { SqlType } from '../validate/types.ts';
import type { Field, Rex } from './rex.ts';

/** A window table-valued function's windows, in milliseconds. */
export interface WindowSpec {
  readonly fn: 'TUMBLE' | 'HOP' | 'CUMULATE' | 'SESSION';
  /** SESSION's gap here too (a session has no fixed size). */
  readonly size: number;
  /** HOP's slide. */
  readonly slide?: number;
  /** CUMULATE's step. */
  readonly step?: number;
  /** SESSION's gap: a window closes when no row of its key came for that long. */
  readonly gap?: number;
  /** Over a processing-time attribute (PROCTIME()): windows by the wall clock, fired by processing-time timers. */
  readonly proctime?: true;
}

export interface AggCall {
  readonly fn: 'COUNT' | 'SUM' | 'MIN' | 'MAX' | 'AVG';
  /** The input field aggregated; none for COUNT(*). */
  readonly arg?: number;
  /** Each distinct value aggregated once (COUNT(DISTINCT x)); kept per group in keyed map state. */
  readonly distinct: boolean;
  /** Where a DISTINCT aggregate was written, for the errors of operators that do not take one. */
  readonly pos?: SqlPosition;
  readonly type: SqlType;
  readonly name: string;
}

/** INNER, LEFT, RIGHT, FULL: which sides keep their rows when nothing matches (null-padded). */
export type JoinType = 'INNER' | 'LEFT' | 'RIGHT' | 'FULL';

/**
 * An event-time interval join's bounds: a left row at `lt` meets right rows at `rt` with
 * `rt + lower <= lt <= rt + upper` (Flink's `leftLowerBound`, `leftUpperBound`).
 */
export interface IntervalBounds {
  readonly leftTime: number;
  readonly rightTime: number;
  readonly lower: number;
  readonly upper: number;
}

export interface SortKey {
  readonly index: number;
  readonly desc: boolean;
}

/**
 * Where window_start and window_end of a window TVF or window aggregation below a node are in
 * its input, and the windows: a Rank partitioned by them (Flink's WindowRank), or each side of
 * a window join.
 */
export interface RankWindow {
  readonly start: number;
  readonly end: number;
  readonly window: WindowSpec;
}

/**
 * What a scan was told by the plan above it (Flink's SupportsProjectionPushDown and
 * SupportsFilterPushDown): `columns`, the table's columns anything reads (the scan's row keeps
 * its width; the others stay NULL, neither read nor computed); `filter`, over the scan's row
 * and reading physical columns only, lets the source drop rows before they are made. The
 * Calc above keeps its condition, so a source may apply the filter in part or not at all.
 */
export interface ScanPushdown {
  readonly columns: readonly number[];
  readonly filter?: Rex;
}

export type WindowKey = { readonly kind: 'field'; readonly index: number } | { readonly kind: 'window_start' } | { readonly kind: 'window_end' };

/**
 * The relational plan (Calcite's RelNode, in Flink's logical operators): every node has the
 * fields of the rows it produces.
 */
export type LogicalNode =
  | { readonly kind: 'scan'; readonly table: CatalogTable; readonly fields: readonly Field[]; readonly pushdown?: ScanPushdown }
  /** Projection and filter in one (Flink's Calc): `condition` over the input, then `projects`. */
  | { readonly kind: 'calc'; readonly input: LogicalNode; readonly projects: readonly Rex[]; readonly condition?: Rex; readonly fields: readonly Field[] }
  /** TUMBLE / HOP / CUMULATE: the input's fields plus window_start, window_end and window_time, a row per window. */
  | { readonly kind: 'windowTvf'; readonly input: LogicalNode; readonly window: WindowSpec; readonly timeIndex: number; readonly fields: readonly Field[] }
  /** GROUP BY without windows: the group keys (input fields), then one field per aggregate. */
  | { readonly kind: 'aggregate'; readonly input: LogicalNode; readonly groupKeys: readonly number[]; readonly aggs: readonly AggCall[]; readonly fields: readonly Field[] }
  /** GROUP BY window_start, window_end, ... over a window TVF: keys in their GROUP BY order, then the aggregates. */
  | { readonly kind: 'windowAggregate'; readonly input: LogicalNode; readonly window: WindowSpec; readonly keys: readonly WindowKey[]; readonly aggs: readonly AggCall[]; readonly fields: readonly Field[] }
  /** UNION ALL: every input's rows, in the first input's column names (types made common by a Calc per input). */
  | { readonly kind: 'union'; readonly inputs: readonly LogicalNode[]; readonly fields: readonly Field[] }
  /**
   * A join on equal keys (`leftKeys[i]` of the left's fields = `rightKeys[i]` of the right's),
   * the rest of the condition as `residual` over the left's fields then the right's; with
   * `interval`, an event-time interval join. `condition` is the whole ON as written, for EXPLAIN.
   */
  | {
      readonly kind: 'join';
      readonly joinType: JoinType;
      readonly left: LogicalNode;
      readonly right: LogicalNode;
      readonly condition: Rex;
      readonly leftKeys: readonly number[];
      readonly rightKeys: readonly number[];
      readonly residual?: Rex;
      readonly interval?: IntervalBounds;
      /** A window join (logical/window-join.ts): both sides' window columns, among the equal keys. */
      readonly window?: { readonly left: RankWindow; readonly right: RankWindow };
      readonly fields: readonly Field[];
    }
  /**
   * A processing-time lookup join (Flink's LookupJoin): each `input` row looks `table` up by
   * `leftKeys` (expressions over the input's fields) = `rightKeys` (the table's columns);
   * `residual` is over the input's fields then the table's. No child plan reads the table.
   */
  | {
      readonly kind: 'lookupJoin';
      readonly joinType: 'INNER' | 'LEFT';
      readonly input: LogicalNode;
      readonly table: CatalogTable;
      readonly condition: Rex;
      readonly leftKeys: readonly Rex[];
      readonly rightKeys: readonly number[];
      readonly residual?: Rex;
      readonly fields: readonly Field[];
    }
  /**
   * ROW_NUMBER() OVER (PARTITION BY .. ORDER BY ..) (Flink's Rank): the input's fields and the
   * row number; `limit` (the N of Top-N) is set when a filter `rn <= N` above it is pushed in;
   * `window` when it is a window Top-N (logical/window-rank.ts).
   */
  | {
      readonly kind: 'rank';
      readonly input: LogicalNode;
      readonly partitionKeys: readonly number[];
      readonly orderKeys: readonly SortKey[];
      readonly limit?: number;
      readonly withoutRowNumber?: true;
      readonly window?: RankWindow;
      readonly pos?: SqlPosition;
      readonly fields: readonly Field[];
    }

  /**
   * Aggregates OVER (PARTITION BY .. ORDER BY time ROWS/RANGE BETWEEN .. PRECEDING AND CURRENT
   * ROW): the input's fields and one per aggregate, over the rows of the frame (`preceding`
   * rows, or milliseconds for RANGE; absent: unbounded).
   */
  | { readonly kind: 'overAggregate'; readonly input: LogicalNode; readonly partitionKeys: readonly number[]; readonly timeIndex: number; readonly rows: boolean; readonly preceding?: number; readonly aggs: readonly AggCall[]; readonly fields: readonly Field[] };

/** A node's inputs, left to right. */
export function nodeInputs(node: LogicalNode): readonly LogicalNode[] {
  switch (node.kind) {
    case 'scan':
      return [];
    case 'union':
      return node.inputs;
    case 'join':
      return [node.left, node.right];
    default:
      return [node.input];
  }
}

/** The node with its inputs replaced (in nodeInputs' order). */
export function withInputs(node: LogicalNode, inputs: readonly LogicalNode[]): LogicalNode {
  switch (node.kind) {
    case 'scan':
      return node;
    case 'union':
      return { ...node, inputs };
    case 'join':
      return { ...node, left: inputs[0]!, right: inputs[1]! };
    default:
      return { ...node, input: inputs[0]! } as LogicalNode;
  }
}

