import * as api from '@weir/api';
import * as connectors from '@weir/connectors';
import { loadJobBundle, WeirError, type LoadJobBundleOptions } from '@weir/common';
import type { DeployTask__Output } from '@weir/rpc';
import { TaskManagerErrorCode } from '../errors.ts';
import type { BundleCache } from './bundle-cache.ts';
import type { JobLoader, LoadedJob } from './types.ts';

/** What a job bundle gets for `require('@weir/...')`: this process's own modules. */
const provided = { '@weir/api': api, '@weir/connectors': connectors };

/**
 * Rebuilds a deploy's job from its bundle, as the JobManager did: same bundle, args and
 * defaults. `options.systemExit` (cluster.intercept-user-system-exit) decides what the job's
 * `process.exit` does: by default it throws, so the task fails and this process lives on.
 */
export function bundleJobLoader(bundles: BundleCache, options: LoadJobBundleOptions): JobLoader {
  return async (message: DeployTask__Output): Promise<LoadedJob> => {
    const defaults = message.defaults;
    if (defaults === null) {
      throw new WeirError(
        TaskManagerErrorCode.INVALID_DEPLOYMENT,
        `the deploy of job ${message.task?.jobId} carries no job defaults; the JobManager must send the defaults it built the job graph with`,
      );
    }
    const code = await bundles.get(message.bundleHash);
    const main = loadJobBundle<api.StreamExecutionEnvironment>(code, message.entryName || 'job.js', provided, options);
    const graph = await api.buildStreamGraph(main, message.args, {
      parallelism: defaults.parallelism,
      maxParallelism: defaults.maxParallelism,
      bufferTimeoutMs: defaults.bufferTimeoutMs,
      // 0 on the wire from a JobManager that predates the setting: the API's default then.
      ...(defaults.autoWatermarkIntervalMs === undefined ? {} : { autoWatermarkIntervalMs: defaults.autoWatermarkIntervalMs }),
    });
    return { graph, jobGraph: api.buildJobGraph(graph) };
  };
}
