import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WeirError } from '@weir/common';
import { CliErrorCode } from './errors.ts';

/** The installed `weir` command: runs the compiled CLI (`pnpm build`), from src and dist alike. */
const binPath = fileURLToPath(new URL('../bin/weir.js', import.meta.url));
const compiledMain = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/**
 * `node [nodeArgs] bin/weir.js <args>`: how the local cluster, the tests and the benchmarks
 * start the CLI, compiled, as in production. `nodeArgs` are flags for node itself, such as
 * --cpu-prof, which NODE_OPTIONS does not accept.
 */
export function weirCommand(args: readonly string[], nodeArgs: readonly string[] = []): { command: string; args: string[] } {
  if (!existsSync(compiledMain)) {
    throw new WeirError(CliErrorCode.NOT_BUILT, `the weir command is not built (${compiledMain} is missing); run \`pnpm build\` first`);
  }
  return { command: process.execPath, args: [...nodeArgs, binPath, ...args] };
}
