import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';

/**
 * A user function's error, named after its operator and subtask as Flink names them:
 * "<operator> (<subtask+1>/<parallelism>) failed: <message>\n<stack>". It keeps the error's
 * own WeirError code, else USER_FUNCTION_FAILED. Operators wrap only the user call, so an
 * error thrown further down a chain passes through upstream operators unchanged.
 */
export class OperatorFailure extends WeirError {
  constructor(operator: string, cause: unknown) {
    const error = cause instanceof Error ? cause : undefined;
    const message = error !== undefined ? error.message : String(cause);
    const stack = error?.stack !== undefined ? `\n${error.stack}` : '';
    super(cause instanceof WeirError ? cause.code : RuntimeErrorCode.USER_FUNCTION_FAILED, `${operator} failed: ${message}${stack}`, {
      cause,
    });
    this.name = 'OperatorFailure';
  }
}

/** Wraps errors of one operator's user code; `label` is "<name> (<subtask+1>/<parallelism>)". */
export class FailureWrapper {
  constructor(readonly label: string) {}

  wrap(cause: unknown): Error {
    return cause instanceof OperatorFailure ? cause : new OperatorFailure(this.label, cause);
  }

  /** Runs user code on the record path (a window's reduce or aggregate), wrapping what it throws. */
  run<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw this.wrap(err);
    }
  }

  /** Runs a lifecycle call (open, close, createWriter...) of this operator's user code. */
  async call<T>(fn: () => T | Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw this.wrap(err);
    }
  }
}
