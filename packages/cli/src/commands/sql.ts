import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WeirError } from '@weir/common';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';
import { resolveUserPath } from '../user-cwd.ts';
import type { ClientArgs } from './client-args.ts';
import { runCommand } from './run.ts';

export interface SqlArgs extends ClientArgs {
  /** `-f`: the script whose statements make the job. */
  readonly file: string;
  readonly parallelism?: number;
  readonly detached: boolean;
}

/**
 * `weir sql -f script.sql`: plans the script's statements here (DDL, then its INSERTs), so a
 * mistake is reported with its line and column and nothing reaches the cluster; then submits
 * the INSERTs as one job, as `weir run` submits a job module: a module of two lines running
 * the script in a StreamTableEnvironment, bundled and sent.
 */
export async function sqlCommand(args: SqlArgs, context: CliContext): Promise<void> {
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
