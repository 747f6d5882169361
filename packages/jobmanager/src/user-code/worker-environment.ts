/**
 * Variables a job's main and split enumerators may see of the JobManager's environment: what
 * Node and ordinary libraries read to work (paths, locale, time zone, temp dir) and the log
 * level. Everything else stays out, above all WEIR_S3_SECRET_KEY and the other WEIR_* config
 * (a job submitted by anyone who can reach the JobManager would read it) and whatever else the
 * JobManager was given; a job passes what its main needs as its arguments.
 */
const PASSED = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'NODE_ENV', 'WEIR_LOG_LEVEL'];

/** The environment of a job's worker process: the PASSED variables of `env` that are set. */
export function jobWorkerEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(PASSED.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])));
}
