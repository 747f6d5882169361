import { CommonErrorCode, WeirError } from '../errors.ts';
import { validateEntry } from './load.ts';
import { ConfigOptions, type WeirConfig } from './options.ts';

/** Keys of this family apply to one job: how it checkpoints and how it restarts. */
const JOB_KEY_PREFIXES = ['execution.checkpointing.', 'restart-strategy.'] as const;

/**
 * And these: its parallelism, pipeline options and state backend. Not state.checkpoints.dir: a
 * client naming where the JobManager writes and deletes checkpoint directories would get around
 * the roots that confine the paths a client may name (state.savepoints.allowed-dirs).
 */
const JOB_KEYS: ReadonlySet<string> = new Set([
  'parallelism.default',
  'pipeline.max-parallelism',
  'pipeline.auto-watermark-interval',
  'pipeline.object-reuse',
  'execution.buffer-timeout',
  'state.backend',
  'state.backend.incremental',
  'state.backend.changelog.enabled',
  'state.backend.changelog.periodic-materialize.interval',
  'state.checkpoints.num-retained',
]);

/** Whether `key` is one a job's own configuration may set (`weir run -D`), as Flink's `flink run -D` does. */
export function isJobConfigKey(key: string): boolean {
  return JOB_KEYS.has(key) || JOB_KEY_PREFIXES.some((prefix) => key.startsWith(prefix) && Object.hasOwn(ConfigOptions, key));
}

/** A sentence naming the keys a job's configuration takes, for messages. */
export const JOB_CONFIG_KEYS_TEXT = `${JOB_KEY_PREFIXES.map((p) => `${p}*`).join(', ')}, ${[...JOB_KEYS].join(', ')}`;

/**
 * The configuration one job runs with: the cluster's, with the job's own keys over it (`weir
 * run -D key=value`); what the job's code sets still wins over both, as in Flink. Throws
 * INVALID_CONFIG naming the key for an unknown key, a bad value, or a key that is the
 * cluster's to set (a port, a slot count), so a submission never half-applies.
 */
export function jobConfiguration(cluster: WeirConfig, overrides: Readonly<Record<string, string>>): WeirConfig {
  const entries = Object.entries(overrides);
  if (entries.length === 0) return cluster;
  const config: Record<string, string | number | boolean> = { ...cluster };
  for (const [key, raw] of entries) {
    const entry = { key, raw, origin: `the job's -D ${key}=${raw}` };
    const value = validateEntry(entry);
    if (!isJobConfigKey(key)) {
      throw new WeirError(
        CommonErrorCode.INVALID_CONFIG,
        `config key ${key} (from ${entry.origin}) cannot apply to one job: it is a setting of the cluster's processes, set where they start; a job takes ${JOB_CONFIG_KEYS_TEXT}`,
      );
    }
    config[key] = value;
  }
  return Object.freeze(config) as WeirConfig;
}
