import type { Field } from './logical/rex.ts';
import { formatValue } from './translate/values.ts';

/** Flink's RowKind as its short string: insert, update before (retraction), update after, delete. */
export type RowKind = '+I' | '-U' | '+U' | '-D';

/**
 * A row of a table's changelog (Flink's Row with its RowKind): the field values in the
 * table's column order, as SQL types' run-time values (validate/types.ts). A plain object, so
 * it travels between tasks as it is.
 */
export interface Row {
  readonly kind: RowKind;
  readonly fields: readonly unknown[];
}

/** `+I[1, abc, 2.50]`, as Flink's Row.toString and its print connector show a row. */
export function rowToString(row: Row, fields: readonly Field[]): string {
  return `${row.kind}[${row.fields.map((v, i) => (v === null ? 'null' : formatValue(v, fields[i]!.type))).join(', ')}]`;
}
