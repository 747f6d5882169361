import { Command, Option } from 'commander';
import { parsePositiveInt } from './argument-parsers.ts';
import type { ClientArgs } from './commands/client-args.ts';
import type { ClusterStartArgs } from './commands/cluster-start.ts';
import type { InfoArgs, JobArgs } from './commands/info.ts';
import type { InitArgs } from './init/init-project.ts';
import type { RunArgs } from './commands/run.ts';
import type { SqlArgs } from './commands/sql.ts';
import type { ConfigArgs } from './config-args.ts';
import { clientArgs, configArgs, withClient, withConfig, type ClientOptions, type ConfigOptions } from './program-options.ts';
import { addKafkaCommands, type KafkaActions } from './program-kafka.ts';
import { addSecurityCommands, type SecurityActions } from './program-security.ts';
import { addSavepointCommands, type SavepointActions } from './program-savepoints.ts';

/** What each command does once its arguments are parsed; main.ts wires the real ones, tests record calls. */
export interface CliActions extends SavepointActions, SecurityActions, KafkaActions {
  /** `weir jobmanager`: runs a JobManager until SIGTERM or Ctrl-C. */
  jobmanager(args: ConfigArgs): Promise<void>;
  /** `weir taskmanager`: runs a TaskManager until SIGTERM or Ctrl-C. */
  taskmanager(args: ConfigArgs): Promise<void>;
  /** `weir run`: bundles a job module, submits it and follows it unless detached (Flink's `flink run`). */
  run(args: RunArgs): Promise<void>;
  /** `weir init`: writes a new job project. */
  init(args: InitArgs): Promise<void>;
  /** `weir sql`: the SQL client (Flink's sql-client). */
  sql(args: SqlArgs): Promise<void>;
  /** `weir list`: the cluster's jobs (Flink's `flink list`). */
  list(args: ClientArgs): Promise<void>;
  /** `weir info`: a job's status, vertices and subtasks (Flink's `flink info` shows a plan instead). */
  info(args: InfoArgs): Promise<void>;
  /** `weir checkpoints`: a job's checkpoint history. */
  checkpoints(args: JobArgs): Promise<void>;
  /** `weir cluster start`: a JobManager and TaskManagers on this machine (Flink's start-cluster.sh). */
  clusterStart(args: ClusterStartArgs): Promise<void>;
}

interface RunOptions extends ClientOptions {
  parallelism?: number;
  detached: boolean;
  fromSavepoint?: string;
  allowNonRestoredState: boolean;
  typecheck: boolean;
}

/** The `weir` command line, without side effects until an action runs. */
export function buildProgram(actions: CliActions): Command {
  const program = new Command('weir')
    .description('Weir: a Flink-style distributed stream processor for TypeScript')
    .showHelpAfterError();

  withConfig(program.command('jobmanager').description('run a JobManager until SIGTERM or Ctrl-C')).action((options: ConfigOptions) =>
    actions.jobmanager(configArgs(options)),
  );

  withConfig(program.command('taskmanager').description('run a TaskManager until SIGTERM or Ctrl-C')).action((options: ConfigOptions) =>
    actions.taskmanager(configArgs(options)),
  );

  withClient(
    program
      .command('run')
      .description('bundle a job module, submit it and (unless detached) follow it until it ends')
      .argument('<job>', 'job module (.ts or .js) whose default export builds the job')
      .argument('[args...]', "the job's arguments; put them after -- when they start with -")
      .option('-p, --parallelism <n>', 'default parallelism of the job', parsePositiveInt)
      .option('-d, --detached', 'return once the job is submitted', false)
      .option('--typecheck', "type-check the job's project (its tsconfig.json) before bundling; errors name file:line:column", false)
      .option('-s, --fromSavepoint <savepointPath>', 'start from the state of this savepoint or retained checkpoint (a directory holding _metadata)')
      .option('-n, --allowNonRestoredState', 'with -s: skip state of operators the job no longer has (matched by uid) instead of failing', false)
      .addHelpText(
        'after',
        '\nWith -s, state maps to operators by their uid(); new operators start empty, a new parallelism redistributes keyed state by key group.',
      ),
  ).action((job: string, jobArgs: string[], options: RunOptions, command: Command) => {
    if (options.allowNonRestoredState && options.fromSavepoint === undefined) {
      command.error('error: -n (--allowNonRestoredState) only applies when starting from a savepoint: add -s <savepointPath>');
    }
    const restore = options.fromSavepoint === undefined ? undefined : { savepointPath: options.fromSavepoint, allowNonRestoredState: options.allowNonRestoredState };
    return actions.run({ ...clientArgs(options), job, args: jobArgs, parallelism: options.parallelism, detached: options.detached, restore, ...(options.typecheck && { typecheck: true }) });
  });

  program
    .command('init')
    .description('write a new job project: package.json, tsconfig, an example job with its test, README')
    .argument('<dir>', 'the new project\'s directory (new or empty)')
    .option('--tarballs <dir>', "depend on Weir's packages as the tarballs in this directory (pnpm pack:all) instead of the registry")
    .action((dir: string, options: { tarballs?: string }) => actions.init({ dir, tarballs: options.tarballs }));

  withClient(
    program
      .command('sql')
      .description("Flink's SQL client: statements ending with ; from stdin (each INSERT submitted as a job), or with -f a script whose INSERTs are submitted as one job")
      .option('-f, --file <script>', 'the SQL script, statements separated by ;')
      .option('-p, --parallelism <n>', 'default parallelism of the job', parsePositiveInt)
      .option('-d, --detached', 'return once the job is submitted', false),
  ).action((options: ClientOptions & { file?: string; parallelism?: number; detached: boolean }) =>
    actions.sql({ ...clientArgs(options), file: options.file, parallelism: options.parallelism, detached: options.detached }),
  );

  withClient(program.command('list').description('list the jobs of the cluster')).action((options: ClientOptions) =>
    actions.list(clientArgs(options)),
  );

  withClient(
    program
      .command('info')
      .description("show a job's status, vertices and subtasks")
      .argument('<jobId>')
      .option('--check-slots', "look a replication slot the ended job left up on the server the job named, logging in with PGUSER and PGPASSWORD"),
  ).action((jobId: string, options: ClientOptions & { checkSlots?: boolean }) => actions.info({ ...clientArgs(options), jobId, checkSlots: options.checkSlots === true }));

  withClient(program.command('checkpoints').description("show a job's checkpoints, newest first").argument('<jobId>')).action(
    (jobId: string, options: ClientOptions) => actions.checkpoints({ ...clientArgs(options), jobId }),
  );

  addSavepointCommands(program, actions);
  addSecurityCommands(program, actions);
  addKafkaCommands(program, actions);

  const cluster = program.command('cluster').description('a local cluster of child processes');
  withConfig(
    cluster
      .command('start')
      .description('run a JobManager and N TaskManagers in the foreground; Ctrl-C stops them')
      .addOption(new Option('--taskmanagers <n>', 'number of TaskManagers').argParser(parsePositiveInt).default(2))
      .addOption(new Option('--slots <n>', 'slots per TaskManager (taskmanager.numberOfTaskSlots)').argParser(parsePositiveInt).default(2))
      .option('--dir <dir>', 'directory for the processes\' local files', '.weir/cluster'),
  ).action((options: ConfigOptions & { taskmanagers: number; slots: number; dir: string }) =>
    actions.clusterStart({ ...configArgs(options), taskManagers: options.taskmanagers, slots: options.slots, dir: options.dir }),
  );

  return program;
}
