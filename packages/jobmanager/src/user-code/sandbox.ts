import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Node options a job's worker process starts with: Node's permission model, so the job's
 * code (its main and split enumerators) can read Weir's own code and the directories
 * `jobmanager.user-code.read-paths` names, and nothing else: not the JobManager's
 * configuration file, its tokens file or private keys, not `/proc/<JobManager pid>/environ`
 * or `cmdline`. It may not write files, start processes or worker threads, or load native
 * addons. The heap limit is `jobmanager.user-code.heap-size`.
 *
 * From sources (unit tests, `.ts`) the permission model stays off: tsx compiles the worker's
 * modules there, which needs a loader thread, esbuild's process and a cache it writes. The
 * compiled JobManager (`dist/`, every process test and deployment) always sandboxes.
 */
export function workerProcessArgs(options: { heapSizeBytes: number; readPaths: readonly string[] }, moduleUrl: string = import.meta.url): string[] {
  const heap = `--max-old-space-size=${Math.max(16, Math.ceil(options.heapSizeBytes / 1024 ** 2))}`;
  const file = fileURLToPath(moduleUrl);
  if (file.endsWith('.ts')) return [heap, '--import', import.meta.resolve('tsx')];
  const readable = [...weirCodeDirectories(file), ...options.readPaths.map((path) => resolve(path))];
  return [
    heap,
    '--experimental-permission',
    ...readable.map((path) => `--allow-fs-read=${path}`),
    // The permission model is experimental in Node 20; its warning on every start says nothing to a user.
    '--disable-warning=ExperimentalWarning',
  ];
}

/**
 * Where the worker's modules are read from: the `packages` directory this module is in
 * (`packages/jobmanager/dist/…`; the other packages' `dist` are its siblings) and every
 * `node_modules` directory Node looks in from there (pnpm's store and a project's hoisted
 * dependencies are among them). The module loader reads files at their real paths, which
 * lie below these.
 */
export function weirCodeDirectories(moduleFile: string): string[] {
  const packages = resolve(dirname(moduleFile), '..', '..');
  const directories = [packages];
  for (let dir = packages; ; dir = dirname(dir)) {
    const nodeModules = join(dir, 'node_modules');
    if (existsSync(nodeModules)) directories.push(nodeModules);
    if (dirname(dir) === dir) return directories;
  }
}

/** `jobmanager.user-code.read-paths`: comma-separated, blanks ignored. */
export function readPathsFromConfig(value: string): string[] {
  return value
    .split(',')
    .map((path) => path.trim())
    .filter((path) => path !== '');
}

/** What Node 20's permission model says when it refuses a call. */
const DENIED = 'Access to this API has been restricted';

/** A failure of the job's code on the JobManager, with what to change when the sandbox refused it a file. */
export function explainDenial(message: string): string {
  // Right after Node's words, which may stand in a wrapping message or above a stack.
  return message.replace(
    DENIED,
    `${DENIED} (a job's code on the JobManager, its main and its split enumerators, reads only Weir's code and the directories of jobmanager.user-code.read-paths: add the directory it reads to that key, comma-separated)`,
  );
}
