import { SqlError, SqlErrorCode } from '../errors.ts';
import type { LogicalNode, RankWindow } from './nodes.ts';

/**
 * Where window_start and window_end of the windows below `node` are among its fields, and
 * the windows: a window TVF's own columns, a window aggregation's keys, followed through
 * Calcs that pass them on unchanged. Undefined when the node's rows are not per window.
 */
export function windowColumnsOf(node: LogicalNode): RankWindow | undefined {
  switch (node.kind) {
    case 'windowTvf': {
      const base = node.input.fields.length;
      return { start: base, end: base + 1, window: node.window };
    }
    case 'windowAggregate': {
      // SESSION group windows (GROUP BY SESSION(..)) are not window TVFs: Flink has no window Top-N over them either.
      if (node.window.fn === 'SESSION') return undefined;
      const start = node.keys.findIndex((k) => k.kind === 'window_start');
      const end = node.keys.findIndex((k) => k.kind === 'window_end');
      return start < 0 || end < 0 ? undefined : { start, end, window: node.window };
    }
    case 'calc': {
      const below = windowColumnsOf(node.input);
      if (below === undefined) return undefined;
      const at = (index: number) => node.projects.findIndex((p) => p.kind === 'input' && p.index === index);
      const start = at(below.start);
      const end = at(below.end);
      return start < 0 || end < 0 ? undefined : { start, end, window: below.window };
    }
    default:
      return undefined;
  }
}

/**
 * A Rank whose PARTITION BY has both window_start and window_end of the windows below it is
 * a window Top-N (Flink's StreamPhysicalWindowRankRule and WindowRankOperator): each
 * window's top rows are emitted once, when the watermark passes the window's end, as inserts;
 * nothing is updated afterwards, so the result is append-only.
 */
export function windowRank(rank: Extract<LogicalNode, { kind: 'rank' }>): LogicalNode {
  const window = windowColumnsOf(rank.input);
  if (window === undefined || !rank.partitionKeys.includes(window.start) || !rank.partitionKeys.includes(window.end)) return rank;
  // Flink's words (StreamPhysicalWindowRankRule): its window Top-N fires on event time only.
  if (window.window.proctime === true) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, 'Processing time Window TopN is not supported yet.');
  return { ...rank, window };
}
