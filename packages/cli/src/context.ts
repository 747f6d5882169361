import type { Clock } from '@weir/common';

/** What a command needs from the process, injected so tests run commands in-process. */
export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  /** Writes one line to stdout. */
  out(line: string): void;
  /** Writes one line to stderr. */
  err(line: string): void;
  /** stderr is a terminal: commands that wait show a live status line there. */
  readonly interactive: boolean;
  /** Shows `line` as the live status line on stderr, replacing the previous one; undefined removes it. Only shown when interactive. */
  status(line: string | undefined): void;
}
