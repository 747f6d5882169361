import { CommonErrorCode, WeirError } from './errors.ts';

/**
 * `cluster.intercept-user-system-exit`, as Flink's: what `process.exit()` and
 * `process.abort()` do when a job's code calls them. THROW: they throw USER_SYSTEM_EXIT, so
 * the task (or the job's main) fails and the process serving every other task keeps running;
 * LOG: a warning, then the process ends; DISABLED: the process just ends.
 */
export const UserSystemExitMode = {
  DISABLED: 'DISABLED',
  LOG: 'LOG',
  THROW: 'THROW',
} as const;
export type UserSystemExitMode = (typeof UserSystemExitMode)[keyof typeof UserSystemExitMode];

/** The error a job's `process.exit(code)` throws under THROW. */
export function userSystemExitError(call: string): WeirError {
  return new WeirError(
    CommonErrorCode.USER_SYSTEM_EXIT,
    `the job's code called ${call}: a job may not end the process it runs in, with every other job there, so the call throws instead (cluster.intercept-user-system-exit: THROW); to fail the job, throw an error`,
  );
}

/**
 * The `process` a job bundle sees: the real one, except for `exit` and `abort` under LOG and
 * THROW. Only the job's own code sees it (the bundle's `process` and `require('process')`);
 * Weir's code keeps the real one, so nothing global changes.
 */
export function userCodeProcess(mode: UserSystemExitMode, warn: (message: string) => void): NodeJS.Process {
  if (mode === UserSystemExitMode.DISABLED) return process;
  const intercept = (name: 'exit' | 'abort') =>
    function intercepted(code?: unknown): never {
      const call = name === 'exit' ? `process.exit(${code === undefined ? '' : String(code)})` : 'process.abort()';
      if (mode === UserSystemExitMode.THROW) throw userSystemExitError(call);
      warn(`the job's code called ${call}; the process ends (cluster.intercept-user-system-exit: LOG)`);
      return name === 'exit' ? process.exit(code as number | undefined) : process.abort();
    };
  const exit = intercept('exit');
  const abort = intercept('abort');
  return new Proxy(process, {
    get(target, key) {
      if (key === 'exit') return exit;
      if (key === 'abort') return abort;
      return Reflect.get(target, key);
    },
  });
}
