/**
 * Every error Weir throws on purpose is a WeirError with a stable `code` (UPPER_SNAKE_CASE).
 * Codes are what tests, the CLI and other processes match on; messages are for people and
 * must say what is wrong and what would be right. Each package lists its codes in its own
 * `errors.ts`, with a line on when each is thrown.
 */
export class WeirError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WeirError';
  }
}

/** Codes shared by several packages. */
export const CommonErrorCode = {
  /** A configuration key is unknown or its value is not one the key accepts. */
  INVALID_CONFIG: 'INVALID_CONFIG',
  /** A request named a job by something that is not a job ID (32 hex digits). */
  INVALID_JOB_ID: 'INVALID_JOB_ID',
  /** A job bundle could not be evaluated (syntax error, throws at import, bad export). */
  INVALID_JOB: 'INVALID_JOB',
  /** A job's code called process.exit or process.abort under cluster.intercept-user-system-exit THROW; the task or the job's main fails with it. */
  USER_SYSTEM_EXIT: 'USER_SYSTEM_EXIT',
  /** Anything unexpected; the message carries the original error. */
  INTERNAL: 'INTERNAL',
} as const;

export function isWeirError(err: unknown, code?: string): err is WeirError {
  return err instanceof WeirError && (code === undefined || err.code === code);
}

/** One line for logs and CLI output: the message plus the code when there is one. */
export function describeError(err: unknown): string {
  if (err instanceof WeirError) return `${err.message} [${err.code}]`;
  if (err instanceof Error) return err.message;
  return String(err);
}
