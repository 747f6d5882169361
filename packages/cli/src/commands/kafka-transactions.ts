import { KAFKA_PREFIX_RESOURCE, KafkaTransactionsAdmin, type OpenTransaction, type TransactionDescription } from '@weir/connectors';
import type { CliContext } from '../context.ts';
import { formatDuration } from '../format/checkpoints.ts';
import { formatTable } from '../format/table.ts';
import { withJobClient, type ClientArgs } from './client-args.ts';

export interface KafkaTransactionsArgs extends ClientArgs {
  /** bootstrap.servers of the Kafka cluster. */
  readonly bootstrap: string;
  /** Only a sink's transactions with this transactional id prefix. */
  readonly prefix?: string;
  readonly abort?: string;
  readonly commit?: string;
}

/**
 * `weir kafka transactions`: lists the cluster's open transactions with the Weir job and
 * checkpoint each belongs to, or aborts or commits one. A job killed and never restarted
 * leaves its transaction open until the broker's transaction timeout, and read_committed
 * consumers of its partitions wait behind it.
 */
export async function kafkaTransactionsCommand(args: KafkaTransactionsArgs, context: CliContext): Promise<void> {
  const admin = new KafkaTransactionsAdmin(args.bootstrap);
  try {
    if (args.abort !== undefined) {
      const ended = await admin.abort(args.abort);
      context.out(`aborted ${describe(ended, context)}; read_committed consumers of ${ended.topics.join(' ') || 'its partitions'} read on past it`);
      return;
    }
    if (args.commit !== undefined) {
      const ended = await admin.commit(args.commit);
      context.out(`committed ${describe(ended, context)}`);
      return;
    }
    const open = await admin.listOpen(args.prefix);
    if (open.length === 0) {
      context.out(`no open transactions${args.prefix === undefined ? '' : ` with prefix '${args.prefix}'`} on ${args.bootstrap}`);
      return;
    }
    const jobs = await jobsByPrefix(args, context);
    const now = context.clock.now();
    const rows = open.map((t) => [
      t.transactionalId,
      t.sink?.prefix ?? '-',
      t.sink === undefined ? '-' : String(t.sink.subtask),
      t.sink === undefined ? '-' : `after ${t.sink.checkpointId - 1}`,
      t.producerId,
      String(t.epoch),
      t.state,
      t.startTimeMs < 0 ? '-' : formatDuration(now - t.startTimeMs),
      jobOf(t, jobs),
      t.topics.join(' '),
    ]);
    for (const line of formatTable(['TRANSACTIONAL ID', 'PREFIX', 'SUBTASK', 'CHECKPOINT', 'PRODUCER', 'EPOCH', 'STATE', 'AGE', 'JOB', 'PARTITIONS'], rows)) context.out(line);
    if (jobs.unknown !== undefined) context.err(`jobs not named: ${jobs.unknown}`);
    context.out('end one with --abort <id> (its records are discarded) or --commit <id> (only if its checkpoint completed)');
  } finally {
    await admin.close();
  }
}

function describe(t: TransactionDescription, context: CliContext): string {
  const age = t.startTimeMs < 0 ? '' : `, open for ${formatDuration(context.clock.now() - t.startTimeMs)}`;
  return `${t.transactionalId} (producer ${t.producerId}, epoch ${t.epoch}${age})`;
}

interface JobsByPrefix {
  readonly byPrefix: ReadonlyMap<string, string>;
  /** Why no job could be named, when the JobManager could not be asked. */
  readonly unknown?: string;
}

/** The JobManager's jobs (running or ended there) by the KafkaSink prefixes they claim; best effort: the cluster may be gone. */
async function jobsByPrefix(args: ClientArgs, context: CliContext): Promise<JobsByPrefix> {
  try {
    return await withJobClient(args, context, async (client) => {
      const byPrefix = new Map<string, string>();
      for (const summary of await client.list()) {
        const details = await client.get(summary.jobId).catch(() => undefined);
        for (const resource of details?.exclusiveResources ?? []) {
          if (resource.kind === KAFKA_PREFIX_RESOURCE) byPrefix.set(resource.name, `${summary.name} ${summary.jobId} ${summary.status}`);
        }
      }
      return { byPrefix };
    });
  } catch (err) {
    return { byPrefix: new Map(), unknown: (err as Error).message };
  }
}

function jobOf(t: OpenTransaction, jobs: JobsByPrefix): string {
  if (t.sink === undefined) return '-';
  return jobs.byPrefix.get(t.sink.prefix) ?? (jobs.unknown === undefined ? 'none known' : '?');
}
