import type { CommanderError } from 'commander';
import { buildProgram, type CliActions } from '../program.ts';

export interface ParsedArgv {
  /** The actions the command line ran, with their arguments. */
  readonly calls: [keyof CliActions, unknown][];
  /** `<commander code>: <first line of its message>` when parsing failed. */
  readonly error?: string;
}

/** Parses `weir` arguments with actions that only record their calls. */
export function parseArgv(argv: readonly string[]): ParsedArgv {
  const calls: [keyof CliActions, unknown][] = [];
  const record =
    (name: keyof CliActions) =>
    async (args: unknown): Promise<void> => {
      calls.push([name, args]);
    };
  const program = buildProgram({
    jobmanager: record('jobmanager'),
    taskmanager: record('taskmanager'),
    run: record('run'),
    init: record('init'),
    sql: record('sql'),
    list: record('list'),
    info: record('info'),
    cancel: record('cancel'),
    cancelWithSavepoint: record('cancelWithSavepoint'),
    savepoint: record('savepoint'),
    checkpoint: record('checkpoint'),
    disposeSavepoint: record('disposeSavepoint'),
    stop: record('stop'),
    checkpoints: record('checkpoints'),
    securityInit: record('securityInit'),
    securityCheck: record('securityCheck'),
    kafkaTransactions: record('kafkaTransactions'),
    clusterStart: record('clusterStart'),
  });
  let error = '';
  for (const command of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
    command.exitOverride().configureOutput({ writeErr: (text) => (error += text), writeOut: () => {} });
  }
  try {
    program.parse([...argv], { from: 'user' });
  } catch (err) {
    return { calls, error: `${(err as CommanderError).code}: ${error.split('\n')[0]}` };
  }
  return { calls };
}
