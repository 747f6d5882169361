import type { Command } from 'commander';
import type { KafkaTransactionsArgs } from './commands/kafka-transactions.ts';
import { clientArgs, withClient, type ClientOptions } from './program-options.ts';

export interface KafkaActions {
  /** `weir kafka transactions`: lists a Kafka cluster's open transactions with the Weir job each belongs to, or ends one. */
  kafkaTransactions(args: KafkaTransactionsArgs): Promise<void>;
}

/** `weir kafka transactions`. */
export function addKafkaCommands(program: Command, actions: KafkaActions): void {
  const kafka = program.command('kafka').description("Kafka operations for Weir's sinks");
  withClient(
    kafka
      .command('transactions <bootstrap>')
      .description("list a Kafka cluster's open transactions with the Weir job and checkpoint each belongs to (the JobManager, -m, names the jobs), or end one")
      .option('--prefix <prefix>', "only a KafkaSink's transactions with this transactional id prefix")
      .option('--abort <transactionalId>', 'abort the open transaction of this id: its records are discarded')
      .option('--commit <transactionalId>', 'commit the open transaction of this id: only for one whose checkpoint completed, else its records come twice'),
  ).action((bootstrap: string, options: ClientOptions & { prefix?: string; abort?: string; commit?: string }, command: Command) => {
    if (options.abort !== undefined && options.commit !== undefined) command.error('error: --abort and --commit end one transaction each; give one of them');
    return actions.kafkaTransactions({ ...clientArgs(options), bootstrap, prefix: options.prefix, abort: options.abort, commit: options.commit });
  });
}
