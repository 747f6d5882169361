import type { Field } from '../logical/rex.ts';
import { formatValue } from '../translate/values.ts';

/** Flink's 'partition.default-name': the directory of a NULL or empty partition value. */
export const DEFAULT_PARTITION_NAME = '__DEFAULT_PARTITION__';

/** The characters Flink's PartitionPathUtils.escapePathName writes as `%XX` (Hive's set). */
const ESCAPED = new Set(['"', '#', '%', "'", '*', '/', ':', '=', '?', '\\', '\u007f', '{', '[', ']', '^']);

/** A partition value as a path segment, as Flink (and Hive) escape it: `12:05` → `12%3A05`. */
export function escapePathName(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    out += (code >= 0x01 && code <= 0x1f) || ESCAPED.has(ch) ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : ch;
  }
  return out;
}

/**
 * A partitioned table's row split into its Hive-style partition path (`dt=2026-01-01/hm=12%3A05`,
 * keys in PARTITIONED BY order, as Flink's PartitionPathUtils.generatePartitionPath) and the
 * values of its other columns, which are what a file of the partition holds (Flink writes the
 * partition columns only in the path).
 */
export function partitionSplitter(
  fields: readonly Field[],
  keys: readonly string[],
  defaultName: string,
): { readonly dataFields: readonly Field[]; readonly split: (values: readonly unknown[]) => { path: string; data: unknown[] } } {
  const keyIndexes = keys.map((k) => fields.findIndex((f) => f.name === k));
  const dataIndexes = fields.map((_, i) => i).filter((i) => !keyIndexes.includes(i));
  return {
    dataFields: dataIndexes.map((i) => fields[i]!),
    split(values) {
      const path = keyIndexes
        .map((index, k) => {
          const value = values[index];
          const text = value === null || value === undefined ? '' : formatValue(value, fields[index]!.type);
          return `${escapePathName(keys[k]!)}=${text === '' ? defaultName : escapePathName(text)}`;
        })
        .join('/');
      return { path, data: dataIndexes.map((i) => values[i]) };
    },
  };
}
