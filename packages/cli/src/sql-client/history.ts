import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The session's history file, as Flink keeps `~/.flink-sql-history`: one statement line a line, newest first as readline keeps them. */
export function historyFile(env: Readonly<Record<string, string | undefined>>): string {
  return join(env.HOME ?? homedir(), '.weir-sql-history');
}

export function loadHistory(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l !== '') : [];
}

/** Best effort: a history that cannot be written (a read-only home) must not end the session. */
export function saveHistory(path: string, history: readonly string[]): void {
  try {
    writeFileSync(path, `${history.join('\n')}\n`, { mode: 0o600 });
  } catch {
    // The session goes on without a saved history.
  }
}
