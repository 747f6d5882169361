import type { AggCall } from '../logical/nodes.ts';
import type { SqlType } from '../validate/types.ts';
import { rescale } from './values.ts';

/**
 * One aggregate function over insert-only input: accumulators are plain values (numbers,
 * bigints, arrays), so they sit in keyed state and checkpoints as they are.
 */
export interface Accumulator {
  create(): unknown;
  add(acc: unknown, value: unknown): unknown;
  merge(a: unknown, b: unknown): unknown;
  result(acc: unknown): unknown;
}

const plus = (a: unknown, b: unknown): unknown => (typeof a === 'bigint' ? a + (b as bigint) : (a as number) + (b as number));

export function accumulatorOf(call: AggCall, argType: SqlType | undefined): Accumulator {
  switch (call.fn) {
    case 'COUNT':
      return {
        create: () => 0,
        add: (acc, v) => (call.arg === undefined || v !== null ? (acc as number) + 1 : acc),
        merge: (a, b) => (a as number) + (b as number),
        result: (acc) => acc,
      };
    case 'SUM':
      return {
        create: () => null,
        add: (acc, v) => (v === null ? acc : acc === null ? v : plus(acc, v)),
        merge: (a, b) => (a === null ? b : b === null ? a : plus(a, b)),
        result: (acc) => acc,
      };
    case 'MIN':
    case 'MAX': {
      const better = call.fn === 'MIN' ? (x: unknown, y: unknown) => x! < y! : (x: unknown, y: unknown) => x! > y!;
      const pick = (a: unknown, b: unknown): unknown => (a === null ? b : b === null ? a : better(b, a) ? b : a);
      return { create: () => null, add: pick, merge: pick, result: (acc) => acc };
    }
    case 'AVG': {
      // [sum, count]; the result has the type Flink gives AVG: INT for INT (truncated), DECIMAL(38, max(6, s)).
      const resultScale = call.type.scale ?? 0;
      const argScale = argType?.scale ?? 0;
      return {
        create: () => [null, 0],
        add: (acc, v) => {
          const [sum, count] = acc as [unknown, number];
          return v === null ? acc : [sum === null ? v : plus(sum, v), count + 1];
        },
        merge: (a, b) => {
          const [sa, ca] = a as [unknown, number];
          const [sb, cb] = b as [unknown, number];
          return [sa === null ? sb : sb === null ? sa : plus(sa, sb), ca + cb];
        },
        result: (acc) => {
          const [sum, count] = acc as [unknown, number];
          if (count === 0 || sum === null) return null;
          if (typeof sum === 'bigint') return rescale((sum * 10n ** BigInt(resultScale - argScale + 1)) / BigInt(count), resultScale + 1, resultScale);
          if (call.type.root === 'INT' || call.type.root === 'BIGINT') return Math.trunc((sum as number) / count);
          return (sum as number) / count;
        },
      };
    }
  }
}
