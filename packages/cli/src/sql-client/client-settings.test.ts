import { describe, expect, it } from 'vitest';
import { clientSettings, MAX_TABLE_ROWS_KEY, RESULT_MODE_KEY } from './client-settings.ts';

const from = (values: Record<string, string>) => (key: string) => values[key];

describe('clientSettings', () => {
  it("defaults to Flink's: a table of at most a million rows", () => {
    expect(clientSettings(from({}))).toEqual({ mode: 'table', maxTableRows: 1_000_000 });
  });

  it('takes the modes in any case and a row bound', () => {
    expect(clientSettings(from({ [RESULT_MODE_KEY]: 'CHANGELOG', [MAX_TABLE_ROWS_KEY]: '50' }))).toEqual({ mode: 'changelog', maxTableRows: 50 });
    expect(clientSettings(from({ [RESULT_MODE_KEY]: 'tableau' })).mode).toBe('tableau');
  });

  it('refuses an unknown mode and a bound that is no positive number, naming the key', () => {
    expect(() => clientSettings(from({ [RESULT_MODE_KEY]: 'grid' }))).toThrow("'sql-client.execution.result-mode' is one of 'table', 'changelog', 'tableau', not 'grid'");
    expect(() => clientSettings(from({ [MAX_TABLE_ROWS_KEY]: '0' }))).toThrow("'sql-client.execution.max-table-result.rows' takes a number of rows of at least 1, not '0'");
    expect(() => clientSettings(from({ [MAX_TABLE_ROWS_KEY]: 'many' }))).toThrow(/not 'many'/);
  });
});
