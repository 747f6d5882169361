import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const mainPath = fileURLToPath(new URL('./main.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * `node [nodeArgs] --import tsx main.ts <args>`: how the local cluster, the tests and the
 * benchmarks start the CLI. `nodeArgs` are flags for node itself, such as --cpu-prof, which
 * NODE_OPTIONS does not accept.
 */
export function weirCommand(args: readonly string[], nodeArgs: readonly string[] = []): { command: string; args: string[] } {
  return { command: process.execPath, args: [...nodeArgs, '--import', tsxLoader, mainPath, ...args] };
}
