import type { Command } from 'commander';
import { collectProperty, parseAddress } from './argument-parsers.ts';
import type { ClientArgs } from './commands/client-args.ts';
import type { ConfigArgs } from './config-args.ts';

/** The options every command parses into ConfigArgs. */
export interface ConfigOptions {
  config?: string;
  D?: Record<string, string>;
}

/** The options of the commands that talk to a JobManager. */
export interface ClientOptions extends ConfigOptions {
  jobmanager?: string;
  tokenFile?: string;
}

export function withConfig(command: Command): Command {
  return command
    .option('-c, --config <file>', 'YAML config file (default: $WEIR_CONFIG)')
    .option('-D <key=value>', 'set a config key; repeatable', collectProperty);
}

export function withClient(command: Command): Command {
  return withConfig(command)
    .option('-m, --jobmanager <host:port>', 'JobManager address (default: jobmanager.rpc.address:jobmanager.rpc.port)', parseAddress)
    // Never the token itself as an argument: ps shows every process's arguments to every user.
    .option('--token-file <file>', 'file holding the token to authenticate with (default: $WEIR_TOKEN)');
}

export function configArgs(options: ConfigOptions): ConfigArgs {
  return { config: options.config, dynamic: options.D ?? {} };
}

export function clientArgs(options: ClientOptions): ClientArgs {
  return { ...configArgs(options), jobManager: options.jobmanager, tokenFile: options.tokenFile };
}

/** Fails the parse the way commander fails a missing `<jobId>`, for commands whose job ID is optional in some forms. */
export function missingJobId(command: Command): never {
  return command.error("error: missing required argument 'jobId'", { code: 'commander.missingArgument' });
}
