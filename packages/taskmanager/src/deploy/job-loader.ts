import * as api from '@weir/api';
import { loadJobBundle, WeirError, type JobMain, type LoadJobBundleOptions } from '@weir/common';
import type { DeployTask__Output } from '@weir/rpc';
import { TaskManagerErrorCode } from '../errors.ts';
import type { BundleCache } from './bundle-cache.ts';
import type { JobLoader, LoadedJob } from './types.ts';

/**
 * What a job bundle gets for `require('@weir/...')`: this process's own modules. The
 * connectors are loaded once the TaskManager registered (`preloadJobModules`) or by the first
 * job, not at start: a TaskManager registers without them.
 */
let provided: Promise<Readonly<Record<string, unknown>>> | undefined;
function providedModules(): Promise<Readonly<Record<string, unknown>>> {
  provided ??= Promise.all([import('@weir/connectors'), import('@weir/sql')]).then(([connectors, sql]) => ({ '@weir/api': api, '@weir/connectors': connectors, '@weir/sql': sql }));
  return provided;
}

/** Loads the modules job bundles get ahead of the first job; a failure to load them fails that job's tasks. */
export function preloadJobModules(): void {
  providedModules().catch(() => {});
}

/** Job attempts whose evaluated bundle is kept; older ones are let go. */
const KEPT_ATTEMPTS = 8;

/**
 * Rebuilds a deploy's job from its bundle, as the JobManager did: same bundle, args and
 * defaults. `options.systemExit` (cluster.intercept-user-system-exit) decides what the job's
 * `process.exit` does: by default it throws, so the task fails and this process lives on.
 */
export function bundleJobLoader(bundles: BundleCache, options: LoadJobBundleOptions): JobLoader {
  /**
   * The bundle evaluated once per job attempt: the tasks of one attempt in this TaskManager
   * share the job's modules, so its classes are the same objects in every task (as Flink's tasks
   * share the job's class loader); a record handed over as an object under object reuse is an
   * instance of the receiving task's class too. Each task still runs the main for its own
   * operator instances, and a new attempt evaluates the bundle afresh.
   */
  const evaluated = new Map<string, JobMain<api.StreamExecutionEnvironment>>();
  const mainOf = async (message: DeployTask__Output): Promise<JobMain<api.StreamExecutionEnvironment>> => {
    const key = `${message.task?.jobId}/${message.task?.attempt}/${message.bundleHash}`;
    let main = evaluated.get(key);
    if (main === undefined) {
      const code = await bundles.get(message.bundleHash);
      const modules = await providedModules();
      main = evaluated.get(key) ?? loadJobBundle<api.StreamExecutionEnvironment>(code, message.entryName || 'job.js', modules, options);
      evaluated.set(key, main);
      if (evaluated.size > KEPT_ATTEMPTS) evaluated.delete(evaluated.keys().next().value!);
    }
    return main;
  };
  return async (message: DeployTask__Output): Promise<LoadedJob> => {
    const defaults = message.defaults;
    if (defaults === null) {
      throw new WeirError(
        TaskManagerErrorCode.INVALID_DEPLOYMENT,
        `the deploy of job ${message.task?.jobId} carries no job defaults; the JobManager must send the defaults it built the job graph with`,
      );
    }
    const main = await mainOf(message);
    const graph = await api.buildStreamGraph(main, message.args, {
      parallelism: defaults.parallelism,
      maxParallelism: defaults.maxParallelism,
      bufferTimeoutMs: defaults.bufferTimeoutMs,
      // 0 on the wire from a JobManager that predates the setting: the API's default then.
      ...(defaults.autoWatermarkIntervalMs === undefined ? {} : { autoWatermarkIntervalMs: defaults.autoWatermarkIntervalMs }),
      objectReuse: defaults.objectReuse,
    });
    return { graph, jobGraph: api.buildJobGraph(graph) };
  };
}
