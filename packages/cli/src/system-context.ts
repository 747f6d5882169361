import { systemClock } from '@weir/common';
import type { CliContext } from './context.ts';

/** Back to the start of the line and clear it: how the status line is replaced on a terminal. */
const CLEAR_LINE = '\r\x1b[2K';

export function systemContext(): CliContext {
  const interactive = process.stderr.isTTY === true;
  let status: string | undefined;
  /** Writes a line above the status line: clear it, write, draw it again. */
  const write = (stream: NodeJS.WriteStream, line: string): void => {
    if (status === undefined) {
      stream.write(`${line}\n`);
      return;
    }
    process.stderr.write(CLEAR_LINE);
    stream.write(`${line}\n`);
    process.stderr.write(status);
  };
  return {
    env: process.env,
    clock: systemClock,
    out: (line) => write(process.stdout, line),
    err: (line) => write(process.stderr, line),
    interactive,
    status(line) {
      if (!interactive) return;
      // The line never wraps: a wrapped line could not be cleared by going back to its start.
      const width = process.stderr.columns ?? 80;
      status = line === undefined ? undefined : line.length < width ? line : `${line.slice(0, width - 2)}…`;
      process.stderr.write(CLEAR_LINE + (status ?? ''));
    },
  };
}
