/** How a child process ended: an exit code, or the signal that killed it. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Whether the child was killed by a signal or exited with a code other than 0. */
export function isFailure(exit: ChildExit): boolean {
  return exit.signal !== null || exit.code !== 0;
}

/** `was killed by SIGKILL` or `exited with code 1`, for messages. */
export function describeExit(exit: ChildExit): string {
  return exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}
