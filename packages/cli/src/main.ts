import { cliActions } from './actions.ts';
import { buildProgram } from './program.ts';
import { runMain } from './run-main.ts';
import { systemContext } from './system-context.ts';

await runMain(async () => {
  await buildProgram(cliActions(systemContext())).parseAsync(process.argv);
});
