import { CommonErrorCode, WeirError, type JobMain } from '@weir/common';
import { StreamExecutionEnvironment, type EnvironmentDefaults } from '../environment/stream-execution-environment.ts';
import type { StreamGraph } from './stream-graph.ts';

/**
 * Runs a job's main (its module's default export, sync or async) against a fresh
 * environment and returns the graph it defined. The JobManager and every task call this
 * with the same main, args and defaults and get identical graphs: node ids and operator IDs
 * depend only on what the main does.
 *
 * The job is named by `env.execute(name)`, else by the main function's name, else 'job'.
 */
export async function buildStreamGraph(
  main: JobMain<StreamExecutionEnvironment>,
  args: readonly string[],
  defaults: EnvironmentDefaults,
): Promise<StreamGraph> {
  const env = new StreamExecutionEnvironment(defaults);
  try {
    await main(env, [...args]);
  } catch (err) {
    if (err instanceof WeirError) throw err;
    throw new WeirError(CommonErrorCode.INVALID_JOB, `the job's main threw while building the job: ${(err as Error)?.message ?? String(err)}`, {
      cause: err,
    });
  }
  const graph = env.getStreamGraph(fallbackJobName(main));
  // Settings a sink cannot work with are the submitter's error, before anything runs.
  for (const node of graph.nodes) if (node.spec.kind === 'sink') node.spec.sink.validate?.({ checkpointing: graph.config.checkpointing });
  return graph;
}

/** `export default function (env) {}` is named 'default'; that says nothing about the job. */
function fallbackJobName(main: Function): string {
  return main.name.length > 0 && main.name !== 'default' ? main.name : 'job';
}
