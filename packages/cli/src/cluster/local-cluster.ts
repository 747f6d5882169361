import { join } from 'node:path';
import { loadConfig, type Clock, type Logger, type WeirConfig } from '@weir/common';
import { weirCommand } from '../child-command.ts';
import { describeExit } from '../supervisor/child-exit.ts';
import { RestartPolicy } from '../supervisor/restart-policy.ts';
import { ProcessSupervisor, type ChildSpec } from '../supervisor/supervisor.ts';
import { ensurePortFree } from './port-check.ts';
import { waitForJobManager } from './wait-for-jobmanager.ts';
import { waitForTaskManagers } from './wait-for-taskmanagers.ts';

/** Like docker compose's `restart: on-failure`, a dead TaskManager comes back after a pause. */
export const TASKMANAGER_RESTART_DELAY_MS = 2_000;

export interface LocalClusterOptions {
  readonly taskManagers: number;
  readonly slots: number;
  /** Absolute directory for the processes' local files: `<dir>/jobmanager`, `<dir>/taskmanager-1`, … */
  readonly dir: string;
  /** Absolute path of the config file every process loads, if any. */
  readonly configFile?: string;
  /** `-D` properties for every process. */
  readonly dynamic: Readonly<Record<string, string>>;
  /** Environment of every process; its WEIR_* variables are config too. */
  readonly env: NodeJS.ProcessEnv;
  /** Working directory of the processes, against which relative paths in the config resolve. */
  readonly cwd: string;
  readonly clock: Clock;
  readonly logger: Logger;
  onLine(name: string, stream: 'stdout' | 'stderr', line: string): void;
  /** How long to wait for the JobManager to answer. */
  readonly startTimeoutMs?: number;
}

/**
 * A JobManager and N TaskManagers as child processes of this one, each started with the
 * same `weir jobmanager|taskmanager` command as in production, the same config, and its own
 * local directories under `dir`. `start` resolves once every TaskManager has registered; a
 * JobManager port already in use fails it before anything starts.
 */
export class LocalCluster {
  private constructor(
    readonly jobManagerAddress: string,
    /** The JobManager's web dashboard and REST API (rest.port). */
    readonly dashboardUrl: string,
    readonly supervisor: ProcessSupervisor,
    /** Resolves with a reason if the JobManager exits while the cluster is not stopping. */
    readonly jobManagerLost: Promise<string>,
  ) {}

  static async start(options: LocalClusterOptions): Promise<LocalCluster> {
    const config = loadConfig({ file: options.configFile, env: options.env, dynamic: options.dynamic });
    let onJobManagerLost: (reason: string) => void = () => {};
    const jobManagerLost = new Promise<string>((resolve) => (onJobManagerLost = resolve));
    const supervisor = new ProcessSupervisor({
      clock: options.clock,
      logger: options.logger,
      onLine: options.onLine,
      onGiveUp: (name, exit) => {
        if (name === 'jobmanager') onJobManagerLost(`the JobManager ${describeExit(exit)}`);
      },
    });
    const host = config['jobmanager.rpc.address'];
    const cluster = new LocalCluster(`${host}:${config['jobmanager.rpc.port']}`, `http://${host}:${config['rest.port']}`, supervisor, jobManagerLost);
    await ensurePortFree(config['jobmanager.bind-host'], config['jobmanager.rpc.port']);
    // Local-disk checkpoints by default, so a job that enables checkpointing needs no setup.
    const checkpoints: Record<string, string> = config['state.checkpoints.dir'] === '' ? { 'state.checkpoints.dir': join(options.dir, 'checkpoints') } : {};
    try {
      supervisor.start(childSpec('jobmanager', 'jobmanager', options, { ...checkpoints, ...loopbackBinds(config, ['jobmanager.bind-host', 'rest.bind-address']), 'blob.storage.directory': join(options.dir, 'jobmanager', 'blobs') }, RestartPolicy.never()));
      await waitForJobManager(config['jobmanager.rpc.address'], config['jobmanager.rpc.port'], {
        clock: options.clock,
        timeoutMs: options.startTimeoutMs ?? 60_000,
        gaveUp: jobManagerLost,
      });
      for (let i = 1; i <= options.taskManagers; i++) {
        const name = `taskmanager-${i}`;
        const own = { ...checkpoints, ...loopbackBinds(config, ['taskmanager.bind-host']), 'taskmanager.numberOfTaskSlots': String(options.slots), 'blob.storage.directory': join(options.dir, name, 'blobs') };
        supervisor.start(childSpec('taskmanager', name, options, own, RestartPolicy.onFailure(TASKMANAGER_RESTART_DELAY_MS)));
      }
      await waitForTaskManagers(cluster.jobManagerAddress, options.taskManagers, {
        clock: options.clock,
        timeoutMs: options.startTimeoutMs ?? 60_000,
        gaveUp: jobManagerLost,
      });
    } catch (err) {
      await supervisor.stopAll();
      throw err;
    }
    return cluster;
  }

  stop(): Promise<void> {
    return this.supervisor.stopAll();
  }
}

/**
 * A local cluster is for this machine: the bind keys left at the every-address default bind
 * the loopback address instead, so it starts without TLS and authentication (@weir/security
 * refuses a non-loopback bind without them). An address the user set stays.
 */
function loopbackBinds(config: WeirConfig, keys: readonly ('jobmanager.bind-host' | 'rest.bind-address' | 'taskmanager.bind-host')[]): Record<string, string> {
  return Object.fromEntries(keys.filter((key) => config[key] === '0.0.0.0').map((key) => [key, '127.0.0.1']));
}

/**
 * `weir jobmanager|taskmanager` with the cluster's config file and -D properties, then the
 * process's own -D properties (its local dirs), which win.
 */
function childSpec(
  role: 'jobmanager' | 'taskmanager',
  name: string,
  options: LocalClusterOptions,
  own: Readonly<Record<string, string>>,
  restart: RestartPolicy,
): ChildSpec {
  const config = options.configFile === undefined ? [] : ['--config', options.configFile];
  const properties = Object.entries({ ...options.dynamic, ...own }).flatMap(([key, value]) => ['-D', `${key}=${value}`]);
  return { name, ...weirCommand([role, ...config, ...properties]), cwd: options.cwd, env: options.env, restart };
}
