import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';
import { CommonErrorCode, WeirError } from './errors.ts';
import { UserSystemExitMode, userCodeProcess } from './user-system-exit.ts';

/** What a job module's default export must be: it builds the job on the environment it is given. */
export type JobMain<Env> = (env: Env, args: string[]) => void | Promise<void>;

const nodeRequire = createRequire(import.meta.url);

export interface LoadJobBundleOptions {
  /** cluster.intercept-user-system-exit: what the job's `process.exit` and `process.abort` do; THROW when not given. */
  readonly systemExit?: UserSystemExitMode;
  /** Where LOG's warning goes. */
  readonly warn?: (message: string) => void;
}

/**
 * Evaluates a job bundle (CommonJS, built by `weir run` with esbuild, `@weir/*` left
 * external) in this process and returns its default export. `modules` supplies the
 * `@weir/*` packages, so the job shares this process's instances of them (its
 * `RichFunction` is the runtime's `RichFunction`). Node built-ins resolve as usual;
 * anything else must have been bundled. The job's code sees a `process` whose `exit` and
 * `abort` follow `options.systemExit` (see `userCodeProcess`).
 */
export function loadJobBundle<Env>(
  code: string,
  filename: string,
  modules: Readonly<Record<string, unknown>>,
  options: LoadJobBundleOptions = {},
): JobMain<Env> {
  const module: { exports: Record<string, unknown> } = { exports: {} };
  const userProcess = userCodeProcess(options.systemExit ?? UserSystemExitMode.THROW, options.warn ?? ((message) => process.emitWarning(message)));
  const requireForBundle = (id: string): unknown => {
    if (Object.hasOwn(modules, id)) return modules[id];
    if (id === 'process' || id === 'node:process') return userProcess;
    if (id.startsWith('node:') || nodeRequire('node:module').isBuiltin(id)) return nodeRequire(id);
    throw new WeirError(
      CommonErrorCode.INVALID_JOB,
      `job ${filename} requires '${id}', which is neither bundled nor provided; provided are ${Object.keys(modules).join(', ')} and Node built-ins`,
    );
  };
  let wrapper: (exports: unknown, require: unknown, module: unknown, __filename: string, __dirname: string, process: NodeJS.Process) => void;
  try {
    wrapper = runInThisContext(`(function (exports, require, module, __filename, __dirname, process) {${code}\n})`, {
      filename,
    }) as typeof wrapper;
  } catch (err) {
    throw new WeirError(CommonErrorCode.INVALID_JOB, `job ${filename} is not valid JavaScript: ${(err as Error).message}`, {
      cause: err,
    });
  }
  try {
    wrapper(module.exports, requireForBundle, module, filename, '.', userProcess);
  } catch (err) {
    if (err instanceof WeirError) throw err;
    throw new WeirError(CommonErrorCode.INVALID_JOB, `job ${filename} threw while loading: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const main = module.exports.default;
  if (typeof main !== 'function') {
    throw new WeirError(
      CommonErrorCode.INVALID_JOB,
      `job ${filename} has no default export function; write \`export default function job(env, args) { ... }\``,
    );
  }
  return main as JobMain<Env>;
}
