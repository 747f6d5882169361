import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { WeirError } from '@weir/common';
import type { Message } from 'esbuild';
import { CliErrorCode } from './errors.ts';

export interface JobBundle {
  /** CommonJS code with `@weir/*` left as `require` calls, for `loadJobBundle`. */
  readonly code: string;
  /** The job file's base name, the submission's `entry_name`. */
  readonly entryName: string;
}

/**
 * Bundles a job module and everything it imports, except the `@weir/*` packages, which the
 * JobManager and TaskManagers supply. So a job file anywhere on disk works without a
 * node_modules of its own, as long as it imports only `@weir/*`, Node built-ins and
 * packages installed next to it.
 */
export async function bundleJob(path: string): Promise<JobBundle> {
  const file = resolve(path);
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new WeirError(CliErrorCode.JOB_FILE_NOT_FOUND, `job file ${file} does not exist; pass the path of a .ts or .js job module`);
  }
  try {
    // Loaded here, not at start-up: every JobManager and TaskManager runs this CLI and never bundles.
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [file],
      absWorkingDir: dirname(file),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['@weir/*'],
      sourcemap: 'inline',
      write: false,
      logLevel: 'silent',
    });
    return { code: result.outputFiles[0]!.text, entryName: basename(file) };
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (errors === undefined || errors.length === 0) throw err;
    throw new WeirError(CliErrorCode.BUNDLE_FAILED, `cannot bundle job ${file}: ${describeBuildErrors(errors)}`, { cause: err });
  }
}

function describeBuildErrors(errors: readonly Message[]): string {
  const [first] = errors;
  const where = first!.location === null ? '' : `${first!.location.file}:${first!.location.line}:${first!.location.column + 1}: `;
  const hint = first!.text.startsWith('Could not resolve')
    ? ' (a job may import @weir/api, @weir/connectors, @weir/sql, Node built-ins and packages in a node_modules beside it)'
    : '';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''})` : '';
  return `${where}${first!.text}${hint}${more}`;
}
