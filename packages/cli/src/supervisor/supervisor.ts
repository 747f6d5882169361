import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CommonErrorCode, WeirError, type Clock, type Logger, type TimerHandle } from '@weir/common';
import { describeExit, isFailure, type ChildExit } from './child-exit.ts';
import type { RestartPolicy } from './restart-policy.ts';

/** One process the supervisor runs: its command, and what happens when it exits. */
export interface ChildSpec {
  /** Unique name, used in logs and output prefixes: `jobmanager`, `taskmanager-1`. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly restart: RestartPolicy;
}

/** What a ProcessSupervisor reports to, and how long it lets children stop. */
export interface SupervisorOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Every line a child writes, as it comes. */
  onLine(name: string, stream: 'stdout' | 'stderr', line: string): void;
  /** A child exited on its own and its policy does not restart it. */
  onGiveUp?(name: string, exit: ChildExit): void;
  /** How long `stopAll` waits after SIGTERM before SIGKILL. */
  readonly stopGraceMs?: number;
}

interface Supervised {
  readonly spec: ChildSpec;
  process: ChildProcess | undefined;
  exited: Promise<ChildExit> | undefined;
  restartTimer: TimerHandle | undefined;
}

/**
 * Runs child processes, forwards their output line by line, restarts those whose policy
 * says so, and stops them all on request. Children are also SIGKILLed if this process
 * exits without stopping them, so none outlive it.
 */
export class ProcessSupervisor {
  readonly #children = new Map<string, Supervised>();
  readonly #options: SupervisorOptions;
  #stopping = false;
  readonly #killAllOnExit = (): void => {
    for (const child of this.#children.values()) child.process?.kill('SIGKILL');
  };

  constructor(options: SupervisorOptions) {
    this.#options = options;
    process.on('exit', this.#killAllOnExit);
  }

  /** Launches the child; CommonErrorCode.INTERNAL when a child of that name is already supervised. */
  start(spec: ChildSpec): void {
    if (this.#children.has(spec.name)) throw new WeirError(CommonErrorCode.INTERNAL, `a child named ${spec.name} is already supervised; give each child its own name`);
    const child: Supervised = { spec, process: undefined, exited: undefined, restartTimer: undefined };
    this.#children.set(spec.name, child);
    this.#launch(child);
  }

  /** The OS process ID of a running child, or undefined while it is down. */
  pid(name: string): number | undefined {
    return this.#children.get(name)?.process?.pid;
  }

  /** Resolves when the child's current process exits (whether or not it is restarted after). */
  exited(name: string): Promise<ChildExit> {
    const exited = this.#children.get(name)?.exited;
    if (exited === undefined) throw new WeirError(CommonErrorCode.INTERNAL, `no child named ${name} was started`);
    return exited;
  }

  /** SIGTERM to every child, SIGKILL to those still alive after the grace period; no restarts from now on. */
  async stopAll(): Promise<void> {
    this.#stopping = true;
    const exits: Promise<ChildExit>[] = [];
    for (const child of this.#children.values()) {
      if (child.restartTimer !== undefined) this.#options.clock.clearTimeout(child.restartTimer);
      if (child.process === undefined || child.exited === undefined) continue;
      const running = child.process;
      running.kill('SIGTERM');
      const killTimer = this.#options.clock.setTimeout(() => running.kill('SIGKILL'), this.#options.stopGraceMs ?? 10_000);
      exits.push(child.exited.finally(() => this.#options.clock.clearTimeout(killTimer)));
    }
    await Promise.all(exits);
    process.removeListener('exit', this.#killAllOnExit);
  }

  #launch(child: Supervised): void {
    const { spec } = child;
    const running = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.process = running;
    child.restartTimer = undefined;
    const output = Promise.all(
      (['stdout', 'stderr'] as const).map(
        (stream) =>
          new Promise<void>((resolve) => {
            const lines = createInterface({ input: running[stream], crlfDelay: Infinity });
            lines.on('line', (line) => this.#options.onLine(spec.name, stream, line));
            lines.on('close', resolve);
          }),
      ),
    );
    const exit = new Promise<ChildExit>((resolve) => {
      running.once('error', (err) => {
        this.#options.logger.error({ child: spec.name, err: err.message }, `${spec.name} could not be started`);
        resolve({ code: -1, signal: null });
      });
      running.once('exit', (code, signal) => resolve({ code, signal }));
    });
    this.#options.logger.info({ child: spec.name, pid: running.pid }, `${spec.name} started`);
    // The last lines a child writes before dying matter most: report the exit only after them.
    child.exited = exit.then(async (result) => {
      await output;
      child.process = undefined;
      this.#onExit(child, result);
      return result;
    });
  }

  #onExit(child: Supervised, exit: ChildExit): void {
    const { spec } = child;
    if (this.#stopping) {
      this.#options.logger.info({ child: spec.name, ...exit }, `${spec.name} stopped`);
      return;
    }
    if (spec.restart.kind === 'on-failure' && isFailure(exit)) {
      this.#options.logger.warn(
        { child: spec.name, ...exit, restartInMs: spec.restart.delayMs },
        `${spec.name} ${describeExit(exit)}; restarting it in ${spec.restart.delayMs} ms`,
      );
      child.restartTimer = this.#options.clock.setTimeout(() => {
        if (!this.#stopping) this.#launch(child);
      }, spec.restart.delayMs);
      return;
    }
    this.#options.logger.warn({ child: spec.name, ...exit }, `${spec.name} ${describeExit(exit)}`);
    this.#options.onGiveUp?.(spec.name, exit);
  }
}
