import { isJobConfigKey, JOB_CONFIG_KEYS_TEXT, WeirError } from '@weir/common';
import { CliErrorCode } from '../errors.ts';

/** Keys of these families configure `weir run` itself: how it finds and talks to the JobManager. */
const CLIENT_KEY_PREFIXES = ['jobmanager.rpc.', 'high-availability.', 'security.'] as const;

/**
 * `weir run -D key=value`, as Flink's `flink run -D`: a job key (execution.checkpointing.*,
 * restart-strategy.*, state backend, parallelism, pipeline options) goes to the job's
 * configuration, a connection key (jobmanager.rpc.*, high-availability.*, security.*) to the
 * client's; any other key is the cluster's to set and refused here, before anything is sent.
 */
export function splitRunProperties(dynamic: Readonly<Record<string, string>>): { job: Record<string, string>; client: Record<string, string> } {
  const job: Record<string, string> = {};
  const client: Record<string, string> = {};
  for (const [key, value] of Object.entries(dynamic)) {
    if (isJobConfigKey(key)) job[key] = value;
    else if (CLIENT_KEY_PREFIXES.some((prefix) => key.startsWith(prefix))) client[key] = value;
    else {
      throw new WeirError(
        CliErrorCode.BAD_ARGUMENT,
        `weir run -D ${key}=${value}: ${key} cannot apply to a job; weir run -D takes the job's keys (${JOB_CONFIG_KEYS_TEXT}) ` +
          `and the client's (${CLIENT_KEY_PREFIXES.map((p) => `${p}*`).join(', ')}); set other keys where the cluster's processes start`,
      );
    }
  }
  return { job, client };
}
