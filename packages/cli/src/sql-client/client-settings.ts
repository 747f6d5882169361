import { WeirError } from '@weir/common';
import { CliErrorCode } from '../errors.ts';

/** Flink's SQL client keys, set with SET in the session. */
export const RESULT_MODE_KEY = 'sql-client.execution.result-mode';
export const MAX_TABLE_ROWS_KEY = 'sql-client.execution.max-table-result.rows';

/**
 * How a SELECT's rows are shown: `table` (default) the rows the changelog describes, updated
 * in place; `changelog` every change as it comes, with its kind; `tableau` the changes as
 * rows of one growing box, as Flink prints a result in a non-interactive run.
 */
export type ResultMode = 'table' | 'changelog' | 'tableau';

export interface ClientSettings {
  readonly mode: ResultMode;
  /** Rows the table mode keeps (Flink's default: 1,000,000); past that the oldest go. */
  readonly maxTableRows: number;
}

const MODES: readonly ResultMode[] = ['table', 'changelog', 'tableau'];

/** The client's settings from the session's configuration; a bad value is an error at the SET that gave it. */
export function clientSettings(get: (key: string) => string | undefined): ClientSettings {
  const mode = (get(RESULT_MODE_KEY) ?? 'table').toLowerCase();
  if (!MODES.includes(mode as ResultMode)) {
    throw new WeirError(CliErrorCode.BAD_ARGUMENT, `'${RESULT_MODE_KEY}' is one of ${MODES.map((m) => `'${m}'`).join(', ')}, not '${get(RESULT_MODE_KEY)}'`);
  }
  const rows = get(MAX_TABLE_ROWS_KEY) ?? '1000000';
  const maxTableRows = Number(rows);
  if (!/^\d+$/.test(rows.trim()) || maxTableRows < 1) {
    throw new WeirError(CliErrorCode.BAD_ARGUMENT, `'${MAX_TABLE_ROWS_KEY}' takes a number of rows of at least 1, not '${rows}'`);
  }
  return { mode: mode as ResultMode, maxTableRows };
}
