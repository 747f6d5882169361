import { T } from '../validate/types.ts';
import type { IntervalBounds } from './nodes.ts';
import { inputsOf, type Rex } from './rex.ts';

/** A join condition taken apart: the equal keys, the event-time bounds if it has both, and the rest. */
export interface JoinCondition {
  readonly leftKeys: readonly number[];
  readonly rightKeys: readonly number[];
  readonly interval?: IntervalBounds;
  readonly residual?: Rex;
}

/** The AND-ed parts of a condition. */
export function conjuncts(rex: Rex): Rex[] {
  return rex.kind === 'call' && rex.op === 'AND' ? rex.operands.flatMap(conjuncts) : [rex];
}

export function and(parts: readonly Rex[]): Rex | undefined {
  if (parts.length === 0) return undefined;
  return parts.reduce((a, b) => ({ kind: 'call', op: 'AND', operands: [a, b], type: T.BOOLEAN }));
}

/** A time attribute of one side plus a constant: `ts`, `ts + INTERVAL ..`, `ts - INTERVAL ..`. */
interface TimeOffset {
  readonly index: number;
  readonly left: boolean;
  readonly offset: number;
}

function timeOffset(rex: Rex, leftCount: number): TimeOffset | undefined {
  if (rex.kind === 'input') return rex.type.rowtime === true ? { index: rex.index, left: rex.index < leftCount, offset: 0 } : undefined;
  if (rex.kind === 'call' && (rex.op === '+' || rex.op === '-') && rex.operands.length === 2) {
    const [a, b] = rex.operands;
    const constant = b!.kind === 'literal' && b!.type.root === 'INTERVAL' ? Number(b!.value) : undefined;
    const inner = constant === undefined ? undefined : timeOffset(a!, leftCount);
    if (inner !== undefined && constant !== undefined) return { ...inner, offset: inner.offset + (rex.op === '+' ? constant : -constant) };
  }
  return undefined;
}

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/**
 * `A op B` with A and B times of different sides, as a bound on `leftTime - rightTime`:
 * `(lt + a) op (rt + b)` is `lt - rt op b - a`. Strict bounds move by a millisecond, as Flink's.
 */
function bound(op: string, a: TimeOffset, b: TimeOffset): { times: [number, number]; lower?: number; upper?: number } | undefined {
  if (a.left === b.left || !(op in FLIP)) return undefined;
  const [l, r, theOp, c] = a.left ? [a, b, op, b.offset - a.offset] : [b, a, FLIP[op]!, a.offset - b.offset];
  const times: [number, number] = [l.index, r.index];
  if (theOp === '>=') return { times, lower: c };
  if (theOp === '>') return { times, lower: c + 1 };
  if (theOp === '<=') return { times, upper: c };
  return { times, upper: c - 1 };
}

/**
 * Splits a join condition over the left's fields then the right's (Flink's JoinInfo and
 * IntervalJoinUtil): `l.x = r.y` of a column of each side are the equal keys; comparisons of
 * the two sides' time attributes (`l.ts BETWEEN r.ts - INTERVAL .. AND r.ts + INTERVAL ..`,
 * or `>=` and `<=`) that bound the difference from both sides make an interval join; the rest
 * stays a residual predicate over the joined row.
 */
export function analyzeJoinCondition(condition: Rex, leftCount: number): JoinCondition {
  const leftKeys: number[] = [];
  const rightKeys: number[] = [];
  const rest: Rex[] = [];
  const timeParts: Rex[] = [];
  let lower: number | undefined;
  let upper: number | undefined;
  let times: [number, number] | undefined;
  type Found = NonNullable<ReturnType<typeof bound>>;
  const find = (op: string, x: Rex, y: Rex): Found | undefined => {
    const a = timeOffset(x, leftCount);
    const b = timeOffset(y, leftCount);
    const found = a === undefined || b === undefined ? undefined : bound(op, a, b);
    return found === undefined || (times !== undefined && (times[0] !== found.times[0] || times[1] !== found.times[1])) ? undefined : found;
  };
  /** Takes the bounds in only when all of them are of the same two time attributes (a BETWEEN gives two). */
  const take = (...found: Array<Found | undefined>): boolean => {
    if (found.some((f) => f === undefined) || found.some((f) => f!.times.join() !== found[0]!.times.join())) return false;
    for (const f of found as Found[]) {
      times = f.times;
      if (f.lower !== undefined) lower = lower === undefined ? f.lower : Math.max(lower, f.lower);
      if (f.upper !== undefined) upper = upper === undefined ? f.upper : Math.min(upper, f.upper);
    }
    return true;
  };
  for (const part of conjuncts(condition)) {
    if (part.kind === 'call' && part.op === '=' && part.operands.every((o) => o.kind === 'input')) {
      const [a, b] = part.operands as Array<Extract<Rex, { kind: 'input' }>>;
      if (a!.index < leftCount !== b!.index < leftCount) {
        const [l, r] = a!.index < leftCount ? [a!, b!] : [b!, a!];
        leftKeys.push(l.index);
        rightKeys.push(r.index - leftCount);
        continue;
      }
    }
    if (part.kind === 'call' && part.op === 'BETWEEN') {
      const [x, lo, hi] = part.operands;
      if (take(find('>=', x!, lo!), find('<=', x!, hi!))) {
        timeParts.push(part);
        continue;
      }
    }
    if (part.kind === 'call' && part.op in FLIP && take(find(part.op, part.operands[0]!, part.operands[1]!))) {
      timeParts.push(part);
      continue;
    }
    rest.push(part);
  }
  // One-sided time bounds do not bound the state: they stay a plain predicate of a regular join.
  const interval = times !== undefined && lower !== undefined && upper !== undefined ? { leftTime: times[0], rightTime: times[1] - leftCount, lower, upper } : undefined;
  const residual = and(interval === undefined ? [...timeParts, ...rest] : rest);
  return { leftKeys, rightKeys, ...(interval ? { interval } : {}), ...(residual ? { residual } : {}) };
}

/** Whether an expression reads fields of both sides (a condition that only a join can evaluate). */
export function readsBothSides(rex: Rex, leftCount: number): boolean {
  const fields = [...inputsOf(rex)];
  return fields.some((i) => i < leftCount) && fields.some((i) => i >= leftCount);
}
