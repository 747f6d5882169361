import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { ReduceFunction } from './types.ts';

/**
 * The rolling aggregations of KeyedStream (Flink's SumAggregator and ComparableAggregator): a
 * field is a position (the record is an array, Flink's tuples) or a name (an object, Flink's
 * POJOs). As in Flink, `sum`, `min` and `max` keep the other fields of the key's first record
 * and only update the aggregated one; `minBy` and `maxBy` keep the whole record holding the
 * minimum or maximum, on a tie the earlier one (`first` = true) or the later one.
 */
export type AggregationType = 'sum' | 'min' | 'max' | 'minBy' | 'maxBy';

/** A field of the records: a position in an array record, or the name of an object record's property. */
export type FieldExpression = number | string;

type Comparable = number | bigint | string;

export class AggregationFunction implements ReduceFunction<unknown> {
  constructor(
    readonly type: AggregationType,
    readonly field: FieldExpression,
    readonly first = true,
  ) {
    const ok = typeof field === 'string' ? field.length > 0 : Number.isSafeInteger(field) && field >= 0;
    if (!ok) {
      throw new WeirError(ApiErrorCode.INVALID_FUNCTION, `${type}() takes a field position (an integer >= 0) or a field name, got ${String(field)}`);
    }
  }

  reduce(accumulated: unknown, value: unknown): unknown {
    const a = this.#read(accumulated);
    const b = this.#read(value);
    switch (this.type) {
      case 'sum':
        return this.#with(accumulated, this.#add(a, b));
      case 'min':
        return this.#with(accumulated, compare(a, b) <= 0 ? a : b);
      case 'max':
        return this.#with(accumulated, compare(a, b) >= 0 ? a : b);
      case 'minBy': {
        const c = compare(a, b);
        return c < 0 || (c === 0 && this.first) ? accumulated : value;
      }
      case 'maxBy': {
        const c = compare(a, b);
        return c > 0 || (c === 0 && this.first) ? accumulated : value;
      }
    }
  }

  #read(record: unknown): Comparable {
    const { field } = this;
    let value: unknown;
    if (typeof field === 'number') {
      if (!Array.isArray(record)) throw this.#error(record, `a field position (${field}) needs array records (Flink's tuples); use a field name for objects`);
      value = record[field];
    } else {
      if (typeof record !== 'object' || record === null || Array.isArray(record)) throw this.#error(record, `a field name ('${field}') needs object records`);
      value = (record as Record<string, unknown>)[field];
    }
    const kind = typeof value;
    if (kind === 'number' || kind === 'bigint' || (kind === 'string' && this.type !== 'sum')) return value as Comparable;
    throw this.#error(record, `field ${describeField(field)} is ${value === undefined ? 'missing' : `a ${kind}`}; ${this.type === 'sum' ? 'sum() adds numbers or bigints' : `${this.type}() compares numbers, bigints or strings`}`);
  }

  #add(a: Comparable, b: Comparable): Comparable {
    if (typeof a !== typeof b) throw this.#error(undefined, `field ${describeField(this.field)} mixes ${typeof a} and ${typeof b} values`);
    return (a as number) + (b as number);
  }

  /** A copy of `record` with the aggregated field set; the record itself may be the value a downstream operator holds. */
  #with(record: unknown, value: Comparable): unknown {
    if (Array.isArray(record)) {
      const copy = record.slice();
      copy[this.field as number] = value;
      return copy;
    }
    const copy = Object.assign(Object.create(Object.getPrototypeOf(record) as object) as object, record) as Record<string, unknown>;
    copy[this.field as string] = value;
    return copy;
  }

  #error(record: unknown, why: string): WeirError {
    const seen = record === undefined ? '' : ` (record: ${preview(record)})`;
    return new WeirError(ApiErrorCode.INVALID_AGGREGATION, `${this.type}(${JSON.stringify(this.field)}): ${why}${seen}`);
  }
}

function compare(a: Comparable, b: Comparable): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function describeField(field: FieldExpression): string {
  return typeof field === 'number' ? `at position ${field}` : `'${field}'`;
}

function preview(record: unknown): string {
  try {
    const text = JSON.stringify(record, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    return text.length > 120 ? `${text.slice(0, 120)}…` : text;
  } catch {
    return String(record);
  }
}
