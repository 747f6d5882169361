import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';
import type { Expr } from '../parse/ast.ts';
import type { WindowSpec } from '../logical/nodes.ts';
import { bindExpr, intervalMillis, type BindContext } from './expressions.ts';
import { typeToString } from './types.ts';

/** A group window of Flink's legacy syntax: `GROUP BY k, SESSION(ts, INTERVAL '5' MINUTE)`. */
export interface GroupWindow {
  readonly spec: WindowSpec;
  /** `SESSION_START(ts, ..)` → 'start', `SESSION_END(ts, ..)` → 'end' (same arguments as the window's), else undefined. */
  auxiliary(expr: Expr): 'start' | 'end' | undefined;
}

const FORMS: Record<string, string> = {
  TUMBLE: "TUMBLE(time_attr, INTERVAL '10' SECOND)",
  HOP: "HOP(time_attr, INTERVAL '5' SECOND, INTERVAL '10' SECOND)",
  SESSION: "SESSION(time_attr, INTERVAL '5' MINUTE)",
};

/** The args as written, positions left out: an auxiliary function must repeat the window's. */
const argsKey = (args: readonly Expr[]): string => JSON.stringify(args, (k, v: unknown) => (k === 'pos' ? undefined : v));

/**
 * Takes a group window function (TUMBLE, HOP or SESSION of a time attribute, Flink's legacy
 * group windows; dt-sql-parser has no rule for the SESSION table function of Flink 1.19) out
 * of GROUP BY, leaving the other keys.
 */
export function groupWindowOf(groupBy: readonly Expr[], ctx: BindContext): { window?: GroupWindow; keys: Expr[] } {
  const at = groupBy.findIndex((g) => g.kind === 'call' && g.name in FORMS);
  if (at < 0) return { keys: [...groupBy] };
  const call = groupBy[at] as Extract<Expr, { kind: 'call' }>;
  const [time, ...intervals] = call.args;
  const fail = (pos: SqlPosition): never => {
    throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `${call.name} takes a time attribute and ${call.name === 'HOP' ? 'two positive intervals' : 'a positive interval'}: ${FORMS[call.name]}`, pos);
  };
  if (time === undefined || intervals.length !== (call.name === 'HOP' ? 2 : 1) || intervals.some((i) => i.kind !== 'interval')) fail(call.pos);
  const ms = intervals.map((i) => intervalMillis(i as Extract<Expr, { kind: 'interval' }>));
  if (ms.some((m) => !(m > 0))) fail(call.pos);
  const timeRex = bindExpr(time!, ctx);
  if (timeRex.type.rowtime !== true) {
    throw new SqlError(
      SqlErrorCode.SQL_NOT_A_TIME_ATTRIBUTE,
      `The group window ${call.name} requires a time attribute (a column with a WATERMARK), but its first argument is ${typeToString(timeRex.type)}`,
      time!.pos,
    );
  }
  const spec: WindowSpec = call.name === 'SESSION' ? { fn: 'SESSION', size: ms[0]!, gap: ms[0]! } : call.name === 'HOP' ? { fn: 'HOP', slide: ms[0]!, size: ms[1]! } : { fn: 'TUMBLE', size: ms[0]! };
  const key = argsKey(call.args);
  const window: GroupWindow = {
    spec,
    auxiliary: (expr) => {
      if (expr.kind !== 'call' || argsKey(expr.args) !== key) return undefined;
      if (expr.name === `${call.name}_START`) return 'start';
      if (expr.name === `${call.name}_END`) return 'end';
      return undefined;
    },
  };
  return { window, keys: groupBy.filter((_, i) => i !== at) };
}
