import { ManualClock } from '@weir/common/testing';
import type { CliContext } from '../context.ts';

/**
 * A CliContext that records output; the clock stands still at 2025-01-02 03:04:05 UTC until a
 * test advances it. `interactive` makes it a terminal, recording every status line shown
 * (undefined when it was removed).
 */
export function captureContext(
  env: Record<string, string | undefined> = {},
  options: { interactive?: boolean } = {},
): CliContext & { readonly clock: ManualClock; readonly stdout: string[]; readonly stderr: string[]; readonly statuses: (string | undefined)[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const statuses: (string | undefined)[] = [];
  const interactive = options.interactive === true;
  return {
    env,
    clock: new ManualClock(Date.UTC(2025, 0, 2, 3, 4, 5)),
    out: (line) => stdout.push(line),
    err: (line) => stderr.push(line),
    interactive,
    status: (line) => {
      if (interactive) statuses.push(line);
    },
    stdout,
    stderr,
    statuses,
  };
}
