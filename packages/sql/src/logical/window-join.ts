import { SqlError, SqlErrorCode } from '../errors.ts';
import type { LogicalNode, RankWindow, WindowSpec } from './nodes.ts';
import { windowColumnsOf } from './window-rank.ts';

type Join = Extract<LogicalNode, { kind: 'join' }>;

/**
 * A join of two windowed inputs ON their window_start and window_end (and other keys) is a
 * window join (Flink's StreamPhysicalWindowJoinRule and WindowJoinOperator): each window's rows
 * of both sides wait in keyed state until the watermark passes the window's end, are joined
 * once, and leave state. Without either equality it stays a regular join, as in Flink; with
 * only one of them, or over different windows, it is refused in Flink's words.
 */
export function windowJoin(join: Join): LogicalNode {
  if (join.interval !== undefined) return join;
  const left = windowColumnsOf(join.left);
  const right = windowColumnsOf(join.right);
  if (left === undefined || right === undefined) return join;
  const equal = (l: number, r: number) => join.leftKeys.some((k, i) => k === l && join.rightKeys[i] === r);
  const starts = equal(left.start, right.start);
  const ends = equal(left.end, right.end);
  if (!starts && !ends) return join;
  if (!starts || !ends) {
    throw new SqlError(
      SqlErrorCode.SQL_UNSUPPORTED,
      'Currently, window join requires both window_start equality and window_end equality of the two inputs in the join condition: add ' +
        (starts ? 'L.window_end = R.window_end' : 'L.window_start = R.window_start'),
    );
  }
  if (!sameWindows(left.window, right.window)) {
    throw new SqlError(
      SqlErrorCode.SQL_UNSUPPORTED,
      `Currently, window join doesn't support different window table function of left and right inputs. The left window table function is ${describe(left)}, the right is ${describe(right)}.`,
    );
  }
  // Flink's words (StreamPhysicalWindowJoinRule): its window join fires on event time only.
  if (left.window.proctime === true) throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, 'Processing time Window Join is not supported yet.');
  return { ...join, window: { left, right } };
}

function sameWindows(a: WindowSpec, b: WindowSpec): boolean {
  return a.fn === b.fn && a.size === b.size && a.slide === b.slide && a.step === b.step && a.gap === b.gap && a.proctime === b.proctime;
}

function describe(w: RankWindow): string {
  const { fn, size, slide, step } = w.window;
  return `${fn}(size=${size} ms${slide === undefined ? '' : `, slide=${slide} ms`}${step === undefined ? '' : `, step=${step} ms`})`;
}
