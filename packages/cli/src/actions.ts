import { cancelCommand, cancelWithSavepointCommand } from './commands/cancel.ts';
import { checkpointsCommand } from './commands/checkpoints.ts';
import { clusterStartCommand } from './commands/cluster-start.ts';
import { infoCommand } from './commands/info.ts';
import { kafkaTransactionsCommand } from './commands/kafka-transactions.ts';
import { listCommand } from './commands/list.ts';
import { runCommand } from './commands/run.ts';
import { initProject } from './init/init-project.ts';
import { resolveUserPath } from './user-cwd.ts';
import { sqlCommand } from './commands/sql.ts';
import { disposeSavepointCommand, savepointCommand } from './commands/savepoint.ts';
import { checkpointCommand } from './commands/trigger-checkpoint.ts';
import { jobManagerCommand, taskManagerCommand } from './commands/serve.ts';
import { securityCheckCommand } from './commands/security-check.ts';
import { securityInitCommand } from './commands/security-init.ts';
import { stopCommand } from './commands/stop.ts';
import type { CliContext } from './context.ts';
import type { CliActions } from './program.ts';

export function cliActions(context: CliContext): CliActions {
  return {
    jobmanager: (args) => jobManagerCommand(args, context),
    taskmanager: (args) => taskManagerCommand(args, context),
    run: (args) => runCommand(args, context),
    init: async (args) => {
      const dir = resolveUserPath(args.dir, context.env);
      const files = initProject({ dir, tarballs: args.tarballs === undefined ? undefined : resolveUserPath(args.tarballs, context.env) });
      context.out(`Wrote a Weir project to ${dir}: ${files.join(', ')}`);
      context.out('Next: npm install, npm test, then npx weir run --typecheck src/job.ts -- data/readings.csv out');
    },
    sql: (args) => sqlCommand(args, context),
    list: (args) => listCommand(args, context),
    info: (args) => infoCommand(args, context),
    cancel: (args) => cancelCommand(args, context),
    cancelWithSavepoint: (args) => cancelWithSavepointCommand(args, context),
    savepoint: (args) => savepointCommand(args, context),
    checkpoint: (args) => checkpointCommand(args, context),
    disposeSavepoint: (args) => disposeSavepointCommand(args, context),
    stop: (args) => stopCommand(args, context),
    checkpoints: (args) => checkpointsCommand(args, context),
    clusterStart: (args) => clusterStartCommand(args, context),
    securityInit: (args) => securityInitCommand(args, context),
    securityCheck: (args) => securityCheckCommand(args, context),
    kafkaTransactions: (args) => kafkaTransactionsCommand(args, context),
  };
}
