import manifest from '../package.json' with { type: 'json' };

/**
 * The version of @weir/api this code is (its package.json's, which follows the repository's).
 * `weir run` records in a job bundle the version the job was built against, and the JobManager
 * refuses a bundle whose major version differs from its own (see `apiVersionsCompatible`).
 */
export const WEIR_API_VERSION: string = manifest.version;

/**
 * Whether a job built against @weir/api `built` runs on a cluster of @weir/api `running`:
 * the same major version, and below 1.0.0 the same minor (npm's caret ranges, since a 0.x
 * minor may break the API as a major does).
 */
export function apiVersionsCompatible(built: string, running: string): boolean {
  const [bMajor, bMinor] = built.split('.').map(Number);
  const [rMajor, rMinor] = running.split('.').map(Number);
  if (bMajor === undefined || bMinor === undefined || Number.isNaN(bMajor) || Number.isNaN(bMinor)) return false;
  return bMajor === rMajor && (bMajor !== 0 || bMinor === rMinor);
}
