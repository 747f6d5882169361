import { createHash } from 'node:crypto';
import { Module, createRequire, isBuiltin } from 'node:module';
import { Script } from 'node:vm';
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

/** Node's CommonJS module, with the members loadJobBundle uses (`_compile` is how Node's own loader runs a module). */
interface CompilableModule {
  exports: Record<string, unknown>;
  filename: string;
  require: (id: string) => unknown;
  _compile(code: string, filename: string): void;
}

/**
 * Evaluates a job bundle (CommonJS, built by `weir run` with esbuild, `@weir/*` left
 * external) in this process and returns its default export. `modules` supplies the
 * `@weir/*` packages, so the job shares this process's instances of them (its
 * `RichFunction` is the runtime's `RichFunction`). Node built-ins resolve as usual;
 * anything else must have been bundled. The job's code sees a `process` whose `exit` and
 * `abort` follow `options.systemExit` (see `userCodeProcess`).
 *
 * The bundle runs as a CommonJS module named `/weir-job/<12 hex of its SHA-256>/<filename>`,
 * through Node's own module loader, with source maps turned on for this process (or thread)
 * first: stack traces point at the job's own files and lines, since the bundle carries its
 * source map inline. Only modules loaded from then on are mapped, the job's bundles: the
 * weir command leaves them off at start (see bin/weir.js).
 */
export function loadJobBundle<Env>(
  code: string,
  filename: string,
  modules: Readonly<Record<string, unknown>>,
  options: LoadJobBundleOptions = {},
): JobMain<Env> {
  const userProcess = userCodeProcess(options.systemExit ?? UserSystemExitMode.THROW, options.warn ?? ((message) => process.emitWarning(message)));
  const requireForBundle = (id: string): unknown => {
    if (Object.hasOwn(modules, id)) return modules[id];
    if (id === 'process' || id === 'node:process') return userProcess;
    if (isBuiltin(id)) return nodeRequire(id);
    throw new WeirError(
      CommonErrorCode.INVALID_JOB,
      `job ${filename} requires '${id}', which is neither bundled nor provided; provided are ${Object.keys(modules).join(', ')} and Node built-ins`,
    );
  };
  // On the bundle's first line, so its source map's lines stay right: the job sees its own `process`.
  const wrapped = `(function (process) {${code}\n}).call(this, require('process'));`;
  // Unique per bundle: Node finds a module's source map by its file name.
  const path = `/weir-job/${createHash('sha256').update(code).digest('hex').slice(0, 12)}/${filename}`;
  try {
    new Script(wrapped, { filename: path });
  } catch (err) {
    throw new WeirError(CommonErrorCode.INVALID_JOB, `job ${filename} is not valid JavaScript: ${(err as Error).message}`, { cause: err });
  }
  process.setSourceMapsEnabled(true);
  const module = new Module(path) as unknown as CompilableModule;
  module.filename = path;
  module.require = requireForBundle;
  try {
    module._compile(wrapped, path);
  } catch (err) {
    if (err instanceof WeirError) throw err;
    throw new WeirError(CommonErrorCode.INVALID_JOB, `job ${filename} threw while loading: ${(err as Error).message}`, { cause: err });
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
