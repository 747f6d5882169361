import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';
import { tableau } from '../sql-client/tableau.ts';

/** What a statement does in the session: an INSERT is submitted, a query submitted and its result shown, the rest run here. */
export type StatementKind = 'insert' | 'query' | 'local';

/** The kind of a parsed statement (@weir/sql's `parseStatements(text)[0].kind`) as the session runs it. */
export function statementKind(parsedKind: string | undefined): StatementKind {
  return parsedKind === 'insert' ? 'insert' : parsedKind === 'select' || parsedKind === 'union' ? 'query' : 'local';
}

/** What a session needs of @weir/sql (loaded by the command) and of the cluster. */
export interface SqlSessionDeps {
  /** Runs one statement in the session's table environment (a query is planned only); its result as printable rows, or throws. */
  execute(statement: string): { readonly columns: readonly string[]; readonly rows: ReadonlyArray<readonly string[]> };
  kindOf(statement: string): StatementKind;
  /** Submits the session's statements so far and an INSERT or a query as a job; returns its id. */
  submit(script: string): Promise<string>;
  /** Shows the result of query job `jobId` until it ends or `interrupt` fires (which cancels it); resolves with its final status. */
  showResult(jobId: string, columns: readonly string[], interrupt: AbortSignal): Promise<string>;
  /** Checks the client's own settings after a SET (result mode, table rows); throws what is wrong. */
  checkSettings(): void;
  out(line: string): void;
}

/** A terminal session: line editing, history (kept by the caller between sessions), Ctrl-C. */
export interface SqlTerminal {
  readonly output: NodeJS.WritableStream;
  readonly history: string[];
  saveHistory(history: readonly string[]): void;
}

const PROMPT = 'Flink SQL> ';
const CONTINUATION = '> ';

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
 * `weir sql` without -f: Flink's SQL client. Lines gather until a statement ends with ';'
 * (outside quotes), then it runs: CREATE, SET, RESET, SHOW TABLES, DESCRIBE and EXPLAIN in
 * the session (results as tableau boxes); an INSERT is planned here and submitted as a job
 * with the session's DDL and SETs before it, printing its id; a SELECT likewise, and its
 * result is shown until its job ends or Ctrl-C cancels it. An error is printed with its line
 * and column and the session goes on. QUIT; or EXIT; or the end of input (Ctrl-D) ends it.
 * On a terminal, lines are edited with history (up and down keys); Ctrl-C at the prompt
 * drops the statement being typed.
 */
export async function runSqlSession(input: Readable, deps: SqlSessionDeps, terminal?: SqlTerminal): Promise<void> {
  const session: string[] = [];
  let buffer = '';
  let query: AbortController | undefined;
  const lines = terminal === undefined
    ? createInterface({ input, crlfDelay: Infinity, terminal: false })
    : createInterface({ input, output: terminal.output, terminal: true, history: terminal.history, historySize: 1_000, removeHistoryDuplicates: true, prompt: PROMPT });
  const prompt = (text: string): void => {
    if (terminal === undefined) return;
    lines.setPrompt(text);
    lines.prompt();
  };
  // On a terminal Ctrl-C reaches readline as a key, elsewhere as a signal: either cancels the running query.
  const interrupt = (): void => {
    if (query !== undefined) query.abort();
    else if (terminal !== undefined) {
      buffer = '';
      terminal.output.write('^C\n');
      prompt(PROMPT);
    }
  };
  lines.on('SIGINT', interrupt);
  if (terminal !== undefined) lines.on('history', (history: string[]) => terminal.saveHistory(history));
  prompt(PROMPT);
  for await (const line of lines) {
    buffer += `${buffer === '' ? '' : '\n'}${line}`;
    if (!statementComplete(buffer)) {
      if (buffer.trim() === '') buffer = '';
      prompt(buffer === '' ? PROMPT : CONTINUATION);
      continue;
    }
    const statement = buffer.trim().replace(/;\s*$/, '');
    buffer = '';
    if (/^(quit|exit)$/i.test(statement)) break;
    query = new AbortController();
    process.on('SIGINT', interrupt);
    try {
      await runStatement(statement, session, deps, query.signal);
    } finally {
      process.removeListener('SIGINT', interrupt);
      query = undefined;
    }
    prompt(PROMPT);
  }
  closeLines(lines);
}

function closeLines(lines: Interface): void {
  lines.removeAllListeners('SIGINT');
  lines.close();
}

async function runStatement(statement: string, session: string[], deps: SqlSessionDeps, interrupt: AbortSignal): Promise<void> {
  try {
    const kind = deps.kindOf(statement);
    if (kind !== 'local') {
      // Planned here first: a mistake is reported before anything reaches the cluster.
      const planned = deps.execute(statement);
      const script = [...session, statement].map((s) => `${s};`).join('\n');
      if (kind === 'insert') {
        deps.out('[INFO] Submitting SQL update statement to the cluster...');
        const jobId = await deps.submit(script);
        deps.out('[INFO] SQL update statement has been successfully submitted to the cluster:');
        deps.out(`Job ID: ${jobId}`);
        return;
      }
      deps.out('[INFO] Submitting SQL query to the cluster...');
      const jobId = await deps.submit(script);
      deps.out(`[INFO] Result of job ${jobId} (Ctrl-C cancels it):`);
      const status = await deps.showResult(jobId, planned.columns, interrupt);
      deps.out(`[INFO] Job ${jobId} ${status}.`);
      return;
    }
    const result = deps.execute(statement);
    if (/^\s*(create|set|reset)\b/i.test(statement)) session.push(statement);
    if (/^\s*set\b/i.test(statement)) deps.checkSettings();
    if (result.rows.length === 1 && result.rows[0]![0] === 'OK' && result.columns[0] === 'result') deps.out('[INFO] Execute statement succeed.');
    else if (result.columns[0] === 'result') deps.out(result.rows.map((r) => r[0]).join('\n'));
    else for (const line of tableau(result.columns, result.rows)) deps.out(line);
  } catch (err) {
    deps.out('[ERROR] Could not execute SQL statement. Reason:');
    deps.out((err as Error).message);
  }
}
