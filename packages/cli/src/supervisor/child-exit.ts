/** How a child process ended: an exit code, or the signal that killed it. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export function isFailure(exit: ChildExit): boolean {
  return exit.signal !== null || exit.code !== 0;
}

export function describeExit(exit: ChildExit): string {
  return exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}
