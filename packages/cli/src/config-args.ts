import { loadConfig, type WeirConfig } from '@weir/common';
import { resolveUserPath } from './user-cwd.ts';

/** The config options shared by commands: `-c, --config <file>` and repeated `-D key=value`. */
export interface ConfigArgs {
  readonly config?: string;
  readonly dynamic: Readonly<Record<string, string>>;
}

/** The config for a command: `--config`, else WEIR_CONFIG, then WEIR_* variables and -D. */
export function loadCliConfig(args: ConfigArgs, env: Readonly<Record<string, string | undefined>>): WeirConfig {
  const file = args.config ?? env.WEIR_CONFIG;
  return loadConfig({ file: file === undefined ? undefined : resolveUserPath(file, env), env, dynamic: args.dynamic });
}

/** `host:port` of the JobManager the config names, the default of `-m`. */
export function configuredJobManagerAddress(config: WeirConfig): string {
  return `${config['jobmanager.rpc.address']}:${config['jobmanager.rpc.port']}`;
}
