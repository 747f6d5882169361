import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { WEIR_API_VERSION } from '@weir/api';
import { WeirError } from '@weir/common';
import type { Message } from 'esbuild';
import { CliErrorCode } from './errors.ts';

/** A job module bundled by `bundleJob`, ready to submit. */
export interface JobBundle {
  /** CommonJS code with `@weir/*` left as `require` calls, for `loadJobBundle`. */
  readonly code: string;
  /** The job file's base name, the submission's `entry_name`. */
  readonly entryName: string;
  /** The version of @weir/api the job was built against (recorded in `code`'s first line). */
  readonly apiVersion: string;
}

/** The packages the JobManager and TaskManagers lend a job (loadJobBundle's `modules`); any other import is bundled. */
export const PROVIDED_PACKAGES = ['@weir/api', '@weir/connectors', '@weir/sql'];

/** The comment a bundle starts with, naming the @weir/api version it was built against; the JobManager reads it (job-submitter.ts). */
export function apiVersionBanner(version: string): string {
  return `/* weir-api-version: ${version} */`;
}

/**
 * The @weir/api the job's project installed (node_modules resolved from the job's directory,
 * as its editor and tsc see it), or this CLI's own when the job has none beside it.
 */
export function apiVersionFor(jobFile: string): string {
  try {
    const manifest = createRequire(jobFile).resolve('@weir/api/package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return WEIR_API_VERSION;
  }
}

/**
 * Bundles a job module and everything it imports, except the packages the JobManager and
 * TaskManagers supply (PROVIDED_PACKAGES; @weir/testing's job-side sinks are bundled), and
 * records the @weir/api version it was built against, which the JobManager checks. So a job file anywhere on disk works without a
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
    const apiVersion = apiVersionFor(file);
    const result = await build({
      entryPoints: [file],
      absWorkingDir: dirname(file),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: PROVIDED_PACKAGES.flatMap((name) => [name, `${name}/*`]),
      // esbuild accounts for the banner in the source map, so the job's lines stay right.
      banner: { js: apiVersionBanner(apiVersion) },
      sourcemap: 'inline',
      write: false,
      logLevel: 'silent',
    });
    return { code: result.outputFiles[0]!.text, entryName: basename(file), apiVersion };
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
