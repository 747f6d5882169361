import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobStatus, WeirError } from '@weir/common';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';
import { resolveUserPath } from '../user-cwd.ts';
import type { ClientArgs } from './client-args.ts';
import { runCommand } from './run.ts';
import { runSqlSession, statementKind } from './sql-session.ts';
import { withJobClient } from './client-args.ts';
import { clientSettings } from '../sql-client/client-settings.ts';
import { historyFile, loadHistory, saveHistory } from '../sql-client/history.ts';
import { queryCluster } from '../sql-client/query-cluster.ts';
import { runQuery } from '../sql-client/run-query.ts';

export interface SqlArgs extends ClientArgs {
  /** `-f`: the script whose statements make the job; without it, an interactive session on stdin. */
  readonly file?: string;
  readonly parallelism?: number;
  readonly detached: boolean;
}

/**
 * `weir sql` without -f: an interactive session (Flink's SQL client). `weir sql -f script.sql`: plans the script's statements here (DDL, then its INSERTs), so a
 * mistake is reported with its line and column and nothing reaches the cluster; then submits
 * the INSERTs as one job, as `weir run` submits a job module: a module of two lines running
 * the script in a StreamTableEnvironment, bundled and sent.
 */
export async function sqlCommand(args: SqlArgs, context: CliContext): Promise<void> {
  if (args.file === undefined) return sqlSession(args, context);
  const path = resolveUserPath(args.file, context.env);
  if (!existsSync(path)) throw new WeirError(CliErrorCode.JOB_FILE_NOT_FOUND, `no SQL script at ${path}`);
  const script = readFileSync(path, 'utf8');
  // @weir/sql (its parser is a megabyte) loads for this command only.
  const [{ StreamExecutionEnvironment }, { StreamTableEnvironment }] = await Promise.all([import('@weir/api'), import('@weir/sql')]);
  const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
  tEnv.executeScript(script);
  if (!/\bINSERT\s+INTO\b/i.test(script)) {
    throw new WeirError(CliErrorCode.BAD_ARGUMENT, `${args.file} has no INSERT INTO statement: a job needs one (write a query's rows to a table, such as a 'print' one)`);
  }
  await submitScript(script, args, context);
}

/** Submits a planned script as a job: a module of two lines running it in a StreamTableEnvironment, bundled and sent as `weir run` does. */
async function submitScript(script: string, args: SqlArgs, context: CliContext): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weir-sql-'));
  try {
    const job = join(dir, 'sql-job.ts');
    writeFileSync(
      job,
      `import { StreamTableEnvironment } from '@weir/sql';\nexport default function sqlScript(env) {\n  StreamTableEnvironment.create(env).executeScript(${JSON.stringify(script)});\n}\n`,
    );
    await runCommand({ ...args, job, args: [] }, context);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `weir sql`: the interactive session (sql-session.ts) on stdin; an INSERT submitted detached, a SELECT's result shown until its job ends or Ctrl-C cancels it. */
async function sqlSession(args: SqlArgs, context: CliContext): Promise<void> {
  const [{ StreamExecutionEnvironment }, { StreamTableEnvironment, parseStatements }] = await Promise.all([import('@weir/api'), import('@weir/sql')]);
  const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
  const settings = () => clientSettings((key) => tEnv.getConfig().get(key));
  const history = historyFile(context.env);
  const tty = process.stdin.isTTY === true;
  await withJobClient(args, context, (client) =>
    runSqlSession(
      process.stdin,
      {
        execute: (statement) => tEnv.executeSql(statement),
        kindOf: (statement) => statementKind(parseStatements(statement)[0]?.kind),
        submit: async (script) => {
          const lines: string[] = [];
          await submitScript(script, { ...args, detached: true }, { ...context, out: (line) => void lines.push(line) });
          const jobId = /JobID (\S+)/.exec(lines.join('\n'))?.[1];
          if (jobId === undefined) throw new WeirError(CliErrorCode.BAD_ARGUMENT, `the job was not submitted: ${lines.join(' ')}`);
          return jobId;
        },
        showResult: async (jobId, columns, interrupt) => {
          const screen = { write: (text: string) => void process.stdout.write(text), live: process.stdout.isTTY === true, rows: process.stdout.rows };
          const status = await runQuery(jobId, columns, settings(), queryCluster(client), screen, interrupt);
          const cause = status === JobStatus.FAILED ? (await client.get(jobId).catch(() => undefined))?.failureCause : undefined;
          if (cause) context.out(`[ERROR] The query's job failed: ${cause}`);
          return status;
        },
        checkSettings: () => void settings(),
        out: (line) => context.out(line),
      },
      tty ? { output: process.stdout, history: loadHistory(history), saveHistory: (lines) => saveHistory(history, lines) } : undefined,
    ),
  );
}
