import { ManualClock } from '@weir/common';
import type { CliContext } from '../context.ts';

/** A CliContext that records output; the clock stands still at 2025-01-02 03:04:05 UTC until a test advances it. */
export function captureContext(
  env: Record<string, string | undefined> = {},
): CliContext & { readonly clock: ManualClock; readonly stdout: string[]; readonly stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    env,
    clock: new ManualClock(Date.UTC(2025, 0, 2, 3, 4, 5)),
    out: (line) => stdout.push(line),
    err: (line) => stderr.push(line),
    stdout,
    stderr,
  };
}
