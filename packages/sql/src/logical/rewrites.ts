import { SqlError, SqlErrorCode } from '../errors.ts';
import { T } from '../validate/types.ts';
import type { LogicalNode, WindowKey } from './nodes.ts';
import { inputsOf, substituteInputs, type Rex } from './rex.ts';

/**
 * The rewrites that matter for this plan shape, bottom up (Flink's logical optimization, in
 * small): an Aggregate grouped by window_start and window_end over a window TVF becomes a
 * WindowAggregate (windows in keyed state and timers, insert-only output, instead of an
 * updating aggregate over a row per window); adjacent Calcs merge into one (one operator,
 * one pass per row); a Calc that passes its input through unchanged goes.
 */
export function optimize(node: LogicalNode): LogicalNode {
  let result: LogicalNode;
  switch (node.kind) {
    case 'scan':
      return node;
    case 'aggregate':
      result = windowAggregate({ ...node, input: optimize(node.input) });
      break;
    default:
      result = { ...node, input: optimize(node.input) } as LogicalNode;
  }
  if (result.kind === 'calc') result = mergeCalc(result);
  return result;
}

function mergeCalc(node: Extract<LogicalNode, { kind: 'calc' }>): LogicalNode {
  let current = node;
  if (current.input.kind === 'calc') {
    const inner = current.input;
    const projects = current.projects.map((p) => substituteInputs(p, inner.projects));
    const outer = current.condition === undefined ? undefined : substituteInputs(current.condition, inner.projects);
    const condition: Rex | undefined =
      inner.condition === undefined ? outer : outer === undefined ? inner.condition : { kind: 'call', op: 'AND', operands: [inner.condition, outer], type: T.BOOLEAN };
    current = { kind: 'calc', input: inner.input, projects, ...(condition ? { condition } : {}), fields: current.fields };
  }
  const identity =
    current.condition === undefined &&
    current.projects.length === current.input.fields.length &&
    current.projects.every((p, i) => p.kind === 'input' && p.index === i && current.fields[i]!.name === current.input.fields[i]!.name);
  return identity ? current.input : current;
}

function windowAggregate(node: Extract<LogicalNode, { kind: 'aggregate' }>): LogicalNode {
  const pre = node.input;
  const tvf = pre.kind === 'calc' ? pre.input : pre;
  if (pre.kind !== 'calc' || tvf.kind !== 'windowTvf' || pre.condition !== undefined) return node;
  const base = tvf.input.fields.length;
  const keyOf = (i: number): WindowKey | undefined => {
    const p = pre.projects[i]!;
    if (p.kind !== 'input' || p.index < base) return undefined;
    if (p.index === base) return { kind: 'window_start' };
    if (p.index === base + 1) return { kind: 'window_end' };
    return undefined;
  };
  const windowKeys = node.groupKeys.map(keyOf);
  const hasStart = windowKeys.some((k) => k?.kind === 'window_start');
  const hasEnd = windowKeys.some((k) => k?.kind === 'window_end');
  if (!hasStart || !hasEnd) {
    throw new SqlError(
      SqlErrorCode.SQL_UNSUPPORTED,
      `an aggregation over ${tvf.window.fn} must GROUP BY window_start, window_end (Weir's SQL has window aggregation, not an unbounded GROUP BY over window rows)`,
    );
  }
  // The rest of the Calc reads only the table's columns, so it runs below the windows.
  const rest = pre.projects.map((p, i) => ({ p, i })).filter(({ i }) => windowKeys[i] === undefined);
  for (const { p } of rest) {
    if ([...inputsOf(p)].some((index) => index >= base)) {
      throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, 'window_start, window_end and window_time in a window aggregation may only be GROUP BY keys, not used in other expressions or aggregated');
    }
  }
  const position = new Map(rest.map(({ i }, at) => [i, at]));
  const projects = rest.map(({ p }) => p);
  const below: LogicalNode = { kind: 'calc', input: tvf.input, projects, fields: rest.map(({ i }) => pre.fields[i]!) };
  const keys: WindowKey[] = node.groupKeys.map((k, i) => windowKeys[i] ?? { kind: 'field', index: position.get(k)! });
  const aggs = node.aggs.map((a) => (a.arg === undefined ? a : { ...a, arg: position.get(a.arg)! }));
  return { kind: 'windowAggregate', input: mergeCalc(below as Extract<LogicalNode, { kind: 'calc' }>), window: tvf.window, keys, aggs, fields: node.fields };
}
