import { fork, type ChildProcess } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@weir/common';
import { workerProcessArgs } from './sandbox.ts';
import { jobWorkerEnvironment } from './worker-environment.ts';

export interface WorkerProcessOptions {
  /** jobmanager.user-code.heap-size, in bytes. */
  readonly heapSizeBytes: number;
  /** jobmanager.user-code.read-paths. */
  readonly readPaths: readonly string[];
  readonly logger: Logger;
}

/** How much of a worker's last stderr is kept, to tell why it died (V8's "heap out of memory" line). */
const STDERR_TAIL_CHARS = 4096;

/** A job's worker process and the end of what it wrote to stderr. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** The last few KiB the process wrote to stderr (which is also passed on to the JobManager's). */
  stderrTail(): string;
}

/**
 * Starts a worker process: `worker-main` beside this module, under the sandbox of
 * `sandbox.ts`, with a copy of the few environment variables a job needs and nothing of the
 * JobManager's on its command line. Messages cross by V8's structured clone (`advanced`), as
 * between threads. Idle, it keeps neither the JobManager's event loop nor itself alive: it
 * exits when the JobManager does (the IPC channel closes).
 */
export function startWorkerProcess(options: WorkerProcessOptions): WorkerProcess {
  const child = fork(fileURLToPath(workerEntry()), [], {
    execArgv: workerProcessArgs(options),
    env: jobWorkerEnvironment(process.env),
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let tail = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  child.unref();
  (child.stderr as unknown as { unref?: () => void }).unref?.();
  unrefChannel(child);
  options.logger.debug({ pid: child.pid }, 'job worker process started');
  return { child, stderrTail: () => tail };
}

/** The IPC channel counts as a handle of the event loop until unref'd; the JobMaster refs it while a request waits. */
export function unrefChannel(child: ChildProcess): void {
  (child.channel as { unref?: () => void } | undefined)?.unref?.();
}

export function refChannel(child: ChildProcess): void {
  (child.channel as { ref?: () => void } | undefined)?.ref?.();
}

/**
 * One worker process started ahead, so a submission does not wait for Node to start and load
 * Weir's modules (a second or more under load): `take` hands out the spare, or a new process
 * if there is none, and starts the next spare. The spare is started by the first `take` or by
 * `warm`, not before: a planner that never plans starts nothing. From sources (unit tests)
 * there is no spare: it would compile all of Weir with tsx for every JobManager a test starts.
 */
export class WorkerProcessPool {
  readonly #options: WorkerProcessOptions;
  #spare: WorkerProcess | undefined;
  #closed = false;

  constructor(options: WorkerProcessOptions) {
    this.#options = options;
  }

  warm(): void {
    if (this.#closed || this.#spare !== undefined || moduleExtension === '.ts') return;
    const spare = startWorkerProcess(this.#options);
    // A spare that dies (killed from outside, say) is not handed out.
    spare.child.once('exit', () => {
      if (this.#spare === spare) this.#spare = undefined;
    });
    this.#spare = spare;
  }

  take(): WorkerProcess {
    const spare = this.#spare;
    this.#spare = undefined;
    const taken = spare !== undefined && spare.child.exitCode === null && spare.child.signalCode === null ? spare : startWorkerProcess(this.#options);
    this.warm();
    return taken;
  }

  close(): void {
    this.#closed = true;
    this.#spare?.child.kill('SIGKILL');
    this.#spare = undefined;
  }
}

const moduleExtension = extname(fileURLToPath(import.meta.url));

/**
 * `worker-main` beside this module: `src/user-code/worker-main.ts` from sources (unit tests,
 * run with tsx), `dist/worker-main.js` beside the compiled `dist/index.js` (scripts/build.mjs
 * builds it as an entry of its own).
 */
function workerEntry(): URL {
  return new URL(`./worker-main${moduleExtension}`, import.meta.url);
}
