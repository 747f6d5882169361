/** Codes of the errors the `weir` command throws itself; the JobManager's codes pass through unchanged. */
export const CliErrorCode = {
  /** A command-line argument has a value the command cannot use (`-m` that is not host:port, `-D` without `=`). */
  BAD_ARGUMENT: 'BAD_ARGUMENT',
  /** `weir run` was given a job file that does not exist. */
  JOB_FILE_NOT_FOUND: 'JOB_FILE_NOT_FOUND',
  /** `weir run --typecheck`: the job's project has type errors (listed as file:line:column). */
  TYPE_ERRORS: 'TYPE_ERRORS',
  /** `weir run --typecheck` found no typescript package, neither in the job's project nor beside the CLI. */
  TYPESCRIPT_MISSING: 'TYPESCRIPT_MISSING',
  /** `weir init` was pointed at a directory that holds files already. */
  INIT_TARGET_NOT_EMPTY: 'INIT_TARGET_NOT_EMPTY',
  /** esbuild could not bundle the job module (syntax error, unresolvable import). */
  BUNDLE_FAILED: 'BUNDLE_FAILED',
  /** `weir run`: the job bundle is larger than the JobManager accepts (jobmanager.rpc.max-message-size). */
  BUNDLE_TOO_LARGE: 'BUNDLE_TOO_LARGE',
  /** No JobManager answers at the address (connection refused, timeout). */
  JOBMANAGER_UNREACHABLE: 'JOBMANAGER_UNREACHABLE',
  /** An attached `weir run`, `weir stop` or `weir cancel -s` saw its job end FAILED. */
  JOB_FAILED: 'JOB_FAILED',
  /** An attached `weir run` or `weir stop` saw its job end CANCELED. */
  JOB_CANCELED: 'JOB_CANCELED',
  /** After `weir stop` or `weir cancel -s` took their savepoint, the job ended in another terminal status than the one asked for (FINISHED instead of CANCELED, say). */
  UNEXPECTED_JOB_END: 'UNEXPECTED_JOB_END',
  /** The status stream of a watched job ended before the job reached a terminal status. */
  WATCH_LOST: 'WATCH_LOST',
  /** `weir cluster start`: the JobManager's port is taken (by another JobManager, say); nothing was started. */
  PORT_IN_USE: 'PORT_IN_USE',
  /** A local-cluster process that must keep running (the JobManager) exited, or did not come up in time. */
  CLUSTER_PROCESS_FAILED: 'CLUSTER_PROCESS_FAILED',
  /** The demo's job did not finish in time, or its output differs from the counts computed from its input. */
  DEMO_FAILED: 'DEMO_FAILED',
  /** A process was to be started from the compiled CLI, but `pnpm build` has not written it. */
  NOT_BUILT: 'NOT_BUILT',
  /** The JobManager answered FetchResults with bytes that are no collect sink's rows (a JobManager of another version). */
  BAD_RESPONSE: 'BAD_RESPONSE',
} as const;
