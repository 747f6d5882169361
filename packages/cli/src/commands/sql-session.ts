import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** What a session needs of @weir/sql (loaded by the command) and of the cluster. */
export interface SqlSessionDeps {
  /** Runs one statement in the session's table environment; its result as printable rows, or throws. */
  execute(statement: string): { readonly columns: readonly string[]; readonly rows: ReadonlyArray<readonly string[]> };
  /** The kind of a statement's first word: an INSERT is submitted, the rest run here. */
  isInsert(statement: string): boolean;
  /** Submits the session's statements so far and `insert` as a job; returns its id. */
  submit(script: string): Promise<string>;
  out(line: string): void;
}

/** A result as Flink's SQL client prints it in tableau mode: a box of columns, then "N rows in set". */
export function tableau(columns: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  return [rule, line(columns), rule, ...rows.map(line), rule, `${rows.length} row${rows.length === 1 ? '' : 's'} in set`];
}

/** Whether `buffer` ends a statement: its last character outside quotes and comments is ';'. */
export function statementComplete(buffer: string): boolean {
  let quote: string | undefined;
  let last = '';
  for (let i = 0; i < buffer.length; i++) {
    const ch = buffer[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '-' && buffer[i + 1] === '-') {
      while (i < buffer.length && buffer[i] !== '\n') i++;
      continue;
    }
    if (!/\s/.test(ch)) last = ch;
  }
  return quote === undefined && last === ';';
}

/**
 * `weir sql` without -f: Flink's SQL client on stdin. Lines gather until a statement ends with
 * ';' (outside quotes), then it runs: CREATE, SET, RESET, SHOW TABLES, DESCRIBE and EXPLAIN in
 * the session (results as tableau boxes), an INSERT is planned here and submitted as a job with
 * the session's DDL and SETs before it, printing its id. An error is printed with its line and
 * column and the session goes on. QUIT; or EXIT; or the end of input ends it.
 */
export async function runSqlSession(input: Readable, deps: SqlSessionDeps, prompt?: (text: string) => void): Promise<void> {
  const session: string[] = [];
  let buffer = '';
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  prompt?.('Flink SQL> ');
  for await (const line of lines) {
    buffer += `${buffer === '' ? '' : '\n'}${line}`;
    if (!statementComplete(buffer)) {
      prompt?.(buffer.trim() === '' ? 'Flink SQL> ' : '> ');
      if (buffer.trim() === '') buffer = '';
      continue;
    }
    const statement = buffer.trim().replace(/;\s*$/, '');
    buffer = '';
    if (/^(quit|exit)$/i.test(statement)) break;
    await runStatement(statement, session, deps);
    prompt?.('Flink SQL> ');
  }
  lines.close();
}

async function runStatement(statement: string, session: string[], deps: SqlSessionDeps): Promise<void> {
  try {
    if (deps.isInsert(statement)) {
      // Planned here first: a mistake is reported before anything reaches the cluster.
      deps.execute(statement);
      deps.out('[INFO] Submitting SQL update statement to the cluster...');
      const jobId = await deps.submit([...session, statement].map((s) => `${s};`).join('\n'));
      deps.out('[INFO] SQL update statement has been successfully submitted to the cluster:');
      deps.out(`Job ID: ${jobId}`);
      return;
    }
    const result = deps.execute(statement);
    if (/^\s*(create|set|reset)\b/i.test(statement)) session.push(statement);
    if (result.rows.length === 1 && result.rows[0]![0] === 'OK' && result.columns[0] === 'result') deps.out('[INFO] Execute statement succeed.');
    else if (result.columns[0] === 'result') deps.out(result.rows.map((r) => r[0]).join('\n'));
    else for (const line of tableau(result.columns, result.rows)) deps.out(line);
  } catch (err) {
    deps.out('[ERROR] Could not execute SQL statement. Reason:');
    deps.out((err as Error).message);
  }
}
