import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@weir/common';
import { javaAvailable } from '@weir/kafka-broker';
import { until } from './poll.ts';
import { repoRoot } from './process.ts';

import { setTimeout as sleep } from 'node:timers/promises';

const exec = promisify(execFile);

/** The shipped compose file and the override that swaps third-party images for local stand-ins. */
export const COMPOSE_FILES = [join(repoRoot, 'docker-compose.yml'), join(repoRoot, 'deploy/test/compose.offline.yml')];
export const BUILD_IMAGES = join(repoRoot, 'deploy/test/build-images.sh');
/** The Weir image the compose file builds; the test removes it after. */
export const WEIR_IMAGE = 'weir:local';

/** The compose file's HOST_PORT_* variables: host ports it publishes, picked free for a test run. */
const HOST_PORTS = [
  'JOBMANAGER_1_RPC',
  'JOBMANAGER_1_REST',
  'JOBMANAGER_1_METRICS',
  'JOBMANAGER_2_RPC',
  'JOBMANAGER_2_REST',
  'JOBMANAGER_2_METRICS',
  'KAFKA',
  'POSTGRES',
  'PROMETHEUS',
  'MINIO',
  'MINIO_CONSOLE',
] as const;
export type HostPort = (typeof HOST_PORTS)[number];

/** Why the Docker test cannot run on this machine, or undefined when it can. */
export function dockerUnavailable(): string | undefined {
  const docker = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' });
  if (docker.status !== 0) return `no Docker daemon answers (docker info: ${(docker.error?.message ?? docker.stderr).trim().split('\n')[0]}); .ci/run installs docker.io and starts dockerd`;
  const compose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  if (compose.status !== 0) return `no docker-compose command (${compose.error?.message ?? compose.stderr.trim()}); .ci/run installs Debian's docker-compose`;
  if (!javaAvailable()) return 'no JDK: the Kafka stand-in is built from the broker jars Maven fetches, and the output is read with the Java read_committed client';
  return undefined;
}

/** Output of a command, or a thrown error with both streams. */
async function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await exec(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 64 << 20 });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

export function docker(args: readonly string[], timeoutMs?: number): Promise<string> {
  return run('docker', args, {}, timeoutMs);
}

/**
 * A docker-compose project of the shipped file with the offline override, under a name of its
 * own (and a network named after it) and with free host ports, so it meets neither another run nor what else this machine
 * listens on. Containers are found by compose's labels, which both compose versions set.
 */
export class ComposeProject {
  private constructor(
    readonly name: string,
    readonly ports: Readonly<Record<HostPort, number>>,
  ) {}

  static async create(): Promise<ComposeProject> {
    const ports = {} as Record<HostPort, number>;
    for (const key of HOST_PORTS) ports[key] = await freePort();
    return new ComposeProject(`weirtest${randomBytes(3).toString('hex')}`, ports);
  }

  /** The compose network's name, which TaskManagers' names end in: one per project, as Docker's network names are global. */
  get networkDomain(): string {
    return `${this.name}.weir.internal`;
  }

  get env(): NodeJS.ProcessEnv {
    return { ...Object.fromEntries(HOST_PORTS.map((key) => [`HOST_PORT_${key}`, String(this.ports[key])])), NETWORK_DOMAIN: this.networkDomain };
  }

  /** `docker-compose -p <name> -f docker-compose.yml -f compose.offline.yml <args>`. */
  compose(args: readonly string[], timeoutMs?: number): Promise<string> {
    return run('docker-compose', ['-p', this.name, ...COMPOSE_FILES.flatMap((f) => ['-f', f]), ...args], this.env, timeoutMs);
  }

  /** IDs of the running (or, with `all`, every) containers of `service`, by replica number. */
  async containers(service: string, all = false): Promise<Map<number, string>> {
    const format = '{{.ID}} {{.Label "com.docker.compose.container-number"}}';
    const out = await docker([
      'ps',
      ...(all ? ['-a'] : []),
      '--filter',
      `label=com.docker.compose.project=${this.name}`,
      '--filter',
      `label=com.docker.compose.service=${service}`,
      '--format',
      format,
    ]);
    return new Map(
      out
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [id, number] = line.split(' ');
          return [Number(number), id!];
        }),
    );
  }

  async container(service: string, replica = 1): Promise<string> {
    const id = (await this.containers(service, true)).get(replica);
    if (id === undefined) throw new Error(`no container ${service} #${replica} in ${this.name}`);
    return id;
  }

  /** State, health (or "none") and restart count of a container. */
  async inspect(id: string): Promise<{ status: string; health: string; restarts: number }> {
    const out = await docker(['inspect', '--format', '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}} {{.RestartCount}}', id]);
    const [status, health, restarts] = out.trim().split(' ');
    return { status: status!, health: health!, restarts: Number(restarts) };
  }

  /** Waits until every running container of `services` is healthy (those with a HEALTHCHECK) and there are `count` of each. */
  async waitHealthy(services: Readonly<Record<string, number>>, timeoutMs: number): Promise<void> {
    await until(
      async () => {
        const states: string[] = [];
        for (const [service, count] of Object.entries(services)) {
          const ids = [...(await this.containers(service)).values()];
          const healths = await Promise.all(ids.map(async (id) => (await this.inspect(id)).health));
          const ready = healths.filter((h) => h === 'healthy' || h === 'none').length;
          if (ready < count) states.push(`${service}: ${ready}/${count} (${healths.join(',')})`);
        }
        return states;
      },
      (states) => states.length === 0,
      timeoutMs,
      'waiting for healthy containers',
    );
  }

  /** The last lines of every container's log, for a failing test's message. */
  async logs(lines = 40): Promise<string> {
    return this.compose(['logs', '--no-color', '--tail', String(lines)]).catch((err: Error) => err.message);
  }

  /**
   * `down -v`: containers, networks and volumes of the project go (and with its network, the
   * bridge and the iptables rules Docker made for it); retried once, as a container stopping
   * late can make the network removal fail. Throws if anything of the project is left.
   */
  async down(): Promise<void> {
    try {
      await this.compose(['down', '-v', '--remove-orphans', '-t', '5'], 180_000);
    } catch {
      await sleep(2_000);
      await this.compose(['down', '-v', '--remove-orphans', '-t', '5'], 180_000);
    }
    const label = `label=com.docker.compose.project=${this.name}`;
    const left = [
      await docker(['ps', '-aq', '--filter', label]),
      await docker(['network', 'ls', '-q', '--filter', label]),
      await docker(['volume', 'ls', '-q', '--filter', label]),
    ].join('').trim();
    if (left !== '') throw new Error(`docker-compose down left containers, networks or volumes of ${this.name}: ${left}`);
  }
}
