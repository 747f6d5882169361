import { SqlError, SqlErrorCode } from '../errors.ts';
import { T } from '../validate/types.ts';
import { conjuncts, and } from './join-condition.ts';
import { nodeInputs, withInputs, type LogicalNode, type WindowKey } from './nodes.ts';
import { inputsOf, substituteInputs, type Rex } from './rex.ts';
import { pushIntoScan } from './push-down.ts';
import { windowJoin } from './window-join.ts';
import { windowRank } from './window-rank.ts';

/**
 * The rewrites that matter for this plan shape, bottom up (Flink's logical optimization, in
 * small): an Aggregate grouped by window_start and window_end over a window TVF becomes a
 * WindowAggregate (windows in keyed state and timers, insert-only output, instead of an
 * updating aggregate over a row per window); adjacent Calcs merge into one (one operator,
 * one pass per row); a Calc that passes its input through unchanged goes; a Rank partitioned
 * by a window's start and end becomes a window Top-N, and a join of two windowed inputs on
 * their window_start and window_end a window join; a Calc over a scan pushes the columns it
 * reads and its filter into the scan (push-down.ts).
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
      result = withInputs(node, nodeInputs(node).map(optimize));
  }
  if (result.kind === 'rank') result = windowRank(result);
  if (result.kind === 'join') result = windowJoin(result);
  if (result.kind === 'calc') result = mergeCalc(result);
  if (result.kind === 'calc' && result.input.kind === 'scan') result = pushIntoScan(result);
  if (result.kind === 'calc' && result.input.kind === 'rank') result = rankLimit(result);
  return result;
}

/**
 * A filter on the row number over a Rank (`WHERE rn <= N`, `rn < N`, `rn = 1`) becomes the
 * Rank's N (Flink's FlinkLogicalRankRule): Top-N keeps N rows per partition in state, not all.
 */
function rankLimit(node: Extract<LogicalNode, { kind: 'calc' }>): LogicalNode {
  const rank = node.input as Extract<LogicalNode, { kind: 'rank' }>;
  const rowNumber = rank.fields.length - 1;
  let limit = rank.limit;
  const rest: Rex[] = [];
  for (const part of node.condition === undefined ? [] : conjuncts(node.condition)) {
    const n = rowNumberBound(part, rowNumber);
    if (n === undefined) rest.push(part);
    else limit = limit === undefined ? n : Math.min(limit, n);
  }
  const condition = and(rest);
  // Without the row number in the result, a Top-N emits only the rows that enter and leave, not every rank that moved.
  const readsRowNumber = [...node.projects, ...(condition ? [condition] : [])].some((p) => inputsOf(p).has(rowNumber));
  const { condition: _pushed, ...calc } = node;
  const input = { ...rank, ...(limit !== undefined ? { limit } : {}), ...(readsRowNumber ? {} : { withoutRowNumber: true as const }) };
  return { ...calc, input, ...(condition ? { condition } : {}) };
}

/** N of `rn <= N`, `rn < N + 1`, `rn = 1`, `N >= rn`; undefined for anything else. */
function rowNumberBound(rex: Rex, rowNumber: number): number | undefined {
  if (rex.kind !== 'call' || rex.operands.length !== 2) return undefined;
  const [a, b] = rex.operands;
  const isRn = (r: Rex | undefined): boolean => r?.kind === 'input' && r.index === rowNumber;
  const constant = (r: Rex | undefined): number | undefined => (r?.kind === 'literal' && typeof r.value === 'number' && Number.isInteger(r.value) ? r.value : undefined);
  const [op, c] = isRn(a) ? [rex.op, constant(b)] : isRn(b) ? [({ '>=': '<=', '>': '<', '=': '=' } as Record<string, string>)[rex.op], constant(a)] : [undefined, undefined];
  if (c === undefined || op === undefined) return undefined;
  if (op === '<=') return c;
  if (op === '<') return c - 1;
  if (op === '=' && c === 1) return 1;
  return undefined;
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
