import { join } from 'node:path';
import { envVarName, loadConfig, type Clock, type ConfigKey, type Logger } from '@weir/common';
import { weirCommand } from '../child-command.ts';
import { describeExit } from '../supervisor/child-exit.ts';
import { RestartPolicy } from '../supervisor/restart-policy.ts';
import { ProcessSupervisor, type ChildSpec } from '../supervisor/supervisor.ts';
import { ensurePortFree } from './port-check.ts';
import { waitForJobManager } from './wait-for-jobmanager.ts';
import { waitForTaskManagers } from './wait-for-taskmanagers.ts';

/** Like docker compose's `restart: on-failure`, a dead TaskManager comes back after a pause. */
export const TASKMANAGER_RESTART_DELAY_MS = 2_000;

/** What `weir cluster start` starts: how many TaskManagers and slots, where, with which config. */
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
  /** Every line a process writes, with the process's name. */
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

  /** Starts a JobManager and the TaskManagers, resolving once the JobManager answers. */
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
    // Local-disk checkpoints and savepoints by default, so a job that enables checkpointing and
    // `weir savepoint <jobId>` need no setup; they are also the directories clients may name.
    const checkpoints: Record<string, string> = {
      ...(config['state.checkpoints.dir'] === '' && { 'state.checkpoints.dir': join(options.dir, 'checkpoints') }),
      ...(config['state.savepoints.dir'] === '' && { 'state.savepoints.dir': join(options.dir, 'savepoints') }),
    };
    try {
      // A local job's FileSource reads the user's files: those below the directory the cluster was started in.
      const readPaths: Record<string, string> = config['jobmanager.user-code.read-paths'] === '' ? { 'jobmanager.user-code.read-paths': options.cwd } : {};
      supervisor.start(childSpec('jobmanager', 'jobmanager', options, { ...checkpoints, ...readPaths, 'blob.storage.directory': join(options.dir, 'jobmanager', 'blobs') }, RestartPolicy.never()));
      await waitForJobManager(config['jobmanager.rpc.address'], config['jobmanager.rpc.port'], {
        clock: options.clock,
        timeoutMs: options.startTimeoutMs ?? 60_000,
        gaveUp: jobManagerLost,
      });
      for (let i = 1; i <= options.taskManagers; i++) {
        const name = `taskmanager-${i}`;
        const own = { ...checkpoints, 'taskmanager.numberOfTaskSlots': String(options.slots), 'blob.storage.directory': join(options.dir, name, 'blobs') };
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

  /** Stops every process: SIGTERM, then SIGKILL after the grace period. */
  stop(): Promise<void> {
    return this.supervisor.stopAll();
  }
}

function childSpec(
  role: 'jobmanager' | 'taskmanager',
  name: string,
  options: LocalClusterOptions,
  own: Readonly<Record<string, string>>,
  restart: RestartPolicy,
): ChildSpec {
  const { args, env } = childInvocation(role, options, own);
  return { name, ...weirCommand(args), cwd: options.cwd, env, restart };
}

/**
 * `weir jobmanager|taskmanager` with the cluster's config file, the cluster's -D properties as
 * WEIR_* environment variables, then the process's own -D properties (its local dirs, which
 * win). The cluster's properties go through the environment because a command line is
 * anyone's to read (`ps`), and `-D s3.secret-key=…` would show there for every child; an
 * environment only to the user and root. The environment ranks below -D and above the file,
 * as the cluster's -D properties did for the children.
 */
export function childInvocation(
  role: 'jobmanager' | 'taskmanager',
  options: Pick<LocalClusterOptions, 'configFile' | 'dynamic' | 'env'>,
  own: Readonly<Record<string, string>>,
): { args: string[]; env: NodeJS.ProcessEnv } {
  const config = options.configFile === undefined ? [] : ['--config', options.configFile];
  const properties = Object.entries(own).flatMap(([key, value]) => ['-D', `${key}=${value}`]);
  // loadConfig accepted every key of `dynamic` before any child starts.
  const env = { ...options.env, ...Object.fromEntries(Object.entries(options.dynamic).map(([key, value]) => [envVarName(key as ConfigKey), value])) };
  return { args: [role, ...config, ...properties], env };
}
