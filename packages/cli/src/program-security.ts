import type { Command } from 'commander';
import { clientArgs, withClient, type ClientOptions } from './program-options.ts';
import type { ClientArgs } from './commands/client-args.ts';

export interface SecurityInitArgs {
  readonly dir: string;
  readonly hosts: readonly string[];
  readonly ips: readonly string[];
}

export interface SecurityCheckArgs extends ClientArgs {
  /** `--rest host:port`: the REST API to check too. */
  readonly rest?: string;
}

export interface SecurityActions {
  /** `weir security init`: makes a CA, node and REST certificates and a tokens file with one admin token. */
  securityInit(args: SecurityInitArgs): Promise<void>;
  /** `weir security check`: connects to a cluster and reports what it protects (TLS, plaintext refused, tokens). */
  securityCheck(args: SecurityCheckArgs): Promise<void>;
}

const repeat = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `weir security init` and `weir security check`. */
export function addSecurityCommands(program: Command, actions: SecurityActions): void {
  const security = program.command('security').description('certificates and tokens for a secured cluster, and what a cluster protects');
  security
    .command('init <dir>')
    .description('create a CA, node and REST certificates and a tokens file with one admin token (printed once); again on the same <dir>: new certificates, same CA')
    .option('--host <name>', 'DNS name the cluster is reached at; repeatable', repeat)
    .option('--ip <address>', 'IP address the cluster is reached at; repeatable', repeat)
    .action((dir: string, options: { host?: string[]; ip?: string[] }) => actions.securityInit({ dir, hosts: options.host ?? [], ips: options.ip ?? [] }));
  withClient(
    security
      .command('check')
      .description('connect to a cluster and report what is protected: TLS on gRPC and REST, plaintext refused, a token required')
      .option('--rest <host:port>', 'the REST API to check as well'),
  ).action((options: ClientOptions & { rest?: string }) => actions.securityCheck({ ...clientArgs(options), rest: options.rest }));
}
