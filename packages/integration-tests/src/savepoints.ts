import { fileURLToPath } from 'node:url';
import type { RunResult } from './process.ts';

/** The savepoint path of a `weir savepoint|stop|cancel -s` run: Flink's "Savepoint completed. Path: <path>" line. */
export function savepointPathFrom(result: RunResult): string {
  const match = /^Savepoint completed\. Path: (.+)$/m.exec(result.stdout);
  if (!match) throw new Error(`no savepoint path in output (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  return match[1]!;
}

/** A savepoint path as the CLI prints it (a file: URL or a plain path), as a local path. */
export function localPath(savepointPath: string): string {
  return savepointPath.startsWith('file:') ? fileURLToPath(savepointPath) : savepointPath;
}
