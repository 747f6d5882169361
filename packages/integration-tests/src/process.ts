import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { weirCommand } from '@weir/cli';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the weir CLI to completion; `input` is written to its stdin (else stdin is closed). */
export function runWeir(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string } = {}): Promise<RunResult> {
  const { command, args: argv } = weirCommand(args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, WEIR_LOG_LEVEL: 'warn', ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running weir process (jobmanager, taskmanager) whose output goes to a log file and is searchable. */
export class WeirProcess {
  readonly #child: ChildProcess;
  readonly #log: WriteStream;
  #output = '';
  /** Called after every chunk of output, and at exit. */
  readonly #watchers = new Set<() => void>();
  readonly exited: Promise<number | null>;

  constructor(
    readonly name: string,
    args: readonly string[],
    logFile: string,
    /** Flags for node itself, such as --cpu-prof (which NODE_OPTIONS does not allow). */
    nodeArgs: readonly string[] = [],
    /** A command the process runs under, such as `ip netns exec <namespace>` (which execs, so the PID stays the weir process's). */
    prefix: readonly string[] = [],
    /** Variables added to the test's environment. */
    env: Readonly<Record<string, string>> = {},
  ) {
    const { command, args: argv } = weirCommand(args, nodeArgs);
    this.#log = createWriteStream(logFile, { flags: 'a' });
    const [program, ...programArgs] = [...prefix, command, ...argv];
    this.#child = spawn(program!, programArgs, {
      cwd: repoRoot,
      env: { ...process.env, WEIR_LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const capture = (d: Buffer): void => {
      this.#output += d.toString();
      this.#log.write(d);
      for (const watcher of this.#watchers) watcher();
    };
    this.#child.stdout!.on('data', capture);
    this.#child.stderr!.on('data', capture);
    this.exited = new Promise((resolve) =>
      this.#child.on('exit', (code) => {
        resolve(code);
        for (const watcher of this.#watchers) watcher();
      }),
    );
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get output(): string {
    return this.#output;
  }

  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Resolves as soon as the output matches, rejects when the process exits first or the time is up. */
  waitForOutput(pattern: RegExp, timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (error?: Error): void => {
        clearTimeout(timer);
        this.#watchers.delete(check);
        if (error === undefined) resolve();
        else reject(error);
      };
      const check = (): void => {
        if (pattern.test(this.#output)) done();
        else if (!this.running) done(new Error(`${this.name} exited before printing ${pattern}:\n${this.#output.slice(-3000)}`));
      };
      const timer = setTimeout(
        () => done(new Error(`${this.name} did not print ${pattern} within ${timeoutMs} ms:\n${this.#output.slice(-3000)}`)),
        timeoutMs,
      );
      this.#watchers.add(check);
      check();
    });
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.running) this.#child.kill(signal);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.#child.kill('SIGTERM');
    const killed = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(killed);
    this.#log.end();
  }
}
