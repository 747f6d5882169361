import { DataGeneratorSource, RateLimiterStrategy } from '@weir/connectors';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import { T, type SqlType } from '../validate/types.ts';
import { convertNumber } from '../translate/values.ts';
import { numberOption, type SourcePushdown, type TableFactory, type TableSource } from './factory.ts';

/** A deterministic hash of (row index, field): a restored job regenerates exactly the rows it lost. */
function mix(index: number, field: number): number {
  let h = Math.imul(index ^ 0x2545f491, 0x9e3779b1) ^ Math.imul(field + 1, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  return ((h ^ (h >>> 15)) >>> 0) / 2 ** 32;
}

type FieldGenerator = (index: number) => unknown;

function fieldGenerator(table: CatalogTable, name: string, type: SqlType, field: number): { generate: FieldGenerator; rows?: number } {
  const kind = table.options[`fields.${name}.kind`] ?? 'random';
  const opt = (key: string, fallback: number): number => numberOrNegative(table, `fields.${name}.${key}`, fallback);
  if (kind === 'sequence') {
    const start = opt('start', 0);
    const end = opt('end', Number.MAX_SAFE_INTEGER);
    if (!['INT', 'BIGINT', 'DECIMAL', 'DOUBLE', 'STRING'].includes(type.root)) throw bad(table, name, `a sequence of ${type.root}`);
    const generate: FieldGenerator = (i) => {
      const n = start + i;
      return type.root === 'STRING' ? String(n) : convertNumber(n, T.BIGINT, type);
    };
    return { generate, ...(table.options[`fields.${name}.end`] !== undefined ? { rows: end - start + 1 } : {}) };
  }
  if (kind !== 'random') throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': 'fields.${name}.kind' is 'random' or 'sequence', got '${kind}'`);
  const min = opt('min', 0);
  const max = opt('max', type.root === 'INT' ? 2 ** 31 - 1 : 1_000_000);
  switch (type.root) {
    case 'INT':
    case 'BIGINT':
      return { generate: (i) => min + Math.floor(mix(i, field) * (max - min + 1)) };
    case 'DOUBLE':
      return { generate: (i) => min + mix(i, field) * (max - min) };
    case 'DECIMAL':
      return { generate: (i) => convertNumber(Math.round((min + mix(i, field) * (max - min)) * 10 ** type.scale!) / 10 ** type.scale!, T.DOUBLE, type) };
    case 'BOOLEAN':
      return { generate: (i) => mix(i, field) < 0.5 };
    case 'STRING': {
      const length = opt('length', 100);
      return { generate: (i) => Array.from({ length }, (_, k) => Math.floor(mix(i * 31 + k, field) * 16).toString(16)).join('') };
    }
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      // Flink's: a moment up to max-past before now (not reproducible after a restore, as in Flink).
      return { generate: (i) => Date.now() - Math.floor(mix(i, field) * opt('max-past', 0)) };
    case 'DATE':
      return { generate: () => Math.floor(Date.now() / 86_400_000) };
    default:
      throw bad(table, name, type.root);
  }
}

function numberOrNegative(table: CatalogTable, key: string, fallback: number): number {
  const value = table.options[key];
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': option '${key}' takes a number, got '${value}'`);
  return n;
}

function bad(table: CatalogTable, field: string, what: string): SqlError {
  return new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': datagen cannot generate ${what} for field '${field}'`);
}

/**
 * Flink's datagen: 'rows-per-second' (default 10000), 'number-of-rows' (default unbounded,
 * or the length of a bounded sequence), per field 'fields.<f>.kind' = 'random' (min, max,
 * length) or 'sequence' (start, end). Row i is a function of i alone, so a restored job emits
 * exactly the rows it had not emitted, with the same values.
 */
export const datagenFactory: TableFactory = {
  identifier: 'datagen',
  options: ['rows-per-second', 'number-of-rows', 'fields.'],
  createSource(table: CatalogTable, pushdown?: SourcePushdown): TableSource {
    const physical = table.columns.filter((c) => c.physicalIndex !== undefined);
    const generators = physical.map((c, i) => fieldGenerator(table, c.name, c.type, i));
    const sequenceRows = generators.map((g) => g.rows).filter((r): r is number => r !== undefined);
    const rows = table.options['number-of-rows'] !== undefined ? numberOption(table, 'number-of-rows', 0) : sequenceRows.length > 0 ? Math.min(...sequenceRows) : Number.POSITIVE_INFINITY;
    const rate = numberOption(table, 'rows-per-second', 10_000);
    // Projection push-down: a column nothing reads is not generated (a sequence still bounds the rows).
    const used = generators.map((g, i) => (pushdown === undefined || pushdown.columns.has(i) ? g.generate : () => null));
    const generate = (index: number): unknown[] => used.map((g) => g(index));
    const source = new DataGeneratorSource<unknown[]>(generate, rows, rate > 0 ? RateLimiterStrategy.perSecond(rate) : RateLimiterStrategy.noOp());
    return { source, toRow: (record) => record as unknown[] };
  },
};
