import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { JobEndStatus } from '@weir/api';
import { WeirError, durationText, memorySizeText, type Logger } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';
import type { JobDefaults } from '../job/job-spec.ts';
import type { EnumeratorHost, HostEvent } from '../source/enumerator-host.ts';
import { jobWorkerEnvironment } from './worker-environment.ts';
import type { RequestMessage, ResponseMessage, WorkerMessage, WorkerRequestKind, WorkerRequests, WorkerSetup } from './protocol.ts';

/** What the JobMaster keeps of its job's worker: notice of its death, and closing it when the job ends. */
export interface JobUserCode {
  /** `listener` hears of every end of the worker thread the JobManager did not ask for, with its cause. */
  onDeath(listener: (cause: WeirError) => void): void;
  /** Ends the worker thread; requests still waiting fail. Idempotent. */
  close(): Promise<void>;
  /** The job's split enumerators, run in the worker. */
  enumerators(): EnumeratorHost;
  /** Tells the job's split sources it ended for good (SplitSource.jobEnded); resolves to what failed, a line each. */
  jobEnded(status: JobEndStatus): Promise<readonly string[]>;
}

export interface JobWorkerOptions {
  readonly setup: WorkerSetup;
  /** jobmanager.user-code.heap-size, in bytes. */
  readonly heapSizeBytes: number;
  readonly logger: Logger;
  /** What the job's graph is built with, for its split sources' enumerators. */
  readonly enumeratorGraph: { readonly args: readonly string[]; readonly defaults: JobDefaults };
}

/** How long the sources' jobEnded may take (dropping a replication slot waits for its walsender to let go). */
const JOB_ENDED_TIMEOUT_MS = 60_000;

/** A call into a split enumerator (a reader event, a snapshot) that takes longer is taken for a hung enumerator: the worker ends and the job fails over. */
const ENUMERATOR_CALL_TIMEOUT_MS = 60_000;

export interface RequestOptions {
  readonly timeoutMs: number;
  /** What did not answer, for the timeout's message: "the job's main", say. */
  readonly what: string;
}

interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (err: WeirError) => void;
  /** Started once the thread is ready, so the time to start a thread does not count. */
  timer?: NodeJS.Timeout;
  readonly startTimer: () => void;
}

/**
 * A job's worker thread on the JobManager, where all of the job's code on this side runs:
 * the bundle is evaluated there, never in the JobManager's own thread, so a main that loops,
 * exits, throws or eats memory ends (at worst) the worker. Requests go by kind
 * (`protocol.ts`) and each has a time limit; one that is not answered in time ends the
 * worker, since only that can stop a loop. The thread starts with the first request and
 * again with the first request after it died.
 */
export class JobWorker implements JobUserCode {
  readonly #options: JobWorkerOptions;
  readonly #pending = new Map<number, Pending>();
  readonly #deathListeners: ((cause: WeirError) => void)[] = [];
  #eventListener: ((event: HostEvent) => void) | undefined;
  #thread: Worker | undefined;
  #ready = false;
  /** Why the JobManager is ending the current thread, when it is. */
  #ending: WeirError | undefined;
  /** An error the thread reported before it exited. */
  #error: Error | undefined;
  #nextId = 1;
  #closed = false;

  constructor(options: JobWorkerOptions) {
    this.#options = options;
  }

  request<K extends WorkerRequestKind>(kind: K, payload: WorkerRequests[K]['request'], options: RequestOptions): Promise<WorkerRequests[K]['response']> {
    if (this.#closed) {
      return Promise.reject(new WeirError(JobManagerErrorCode.USER_CODE_FAILED, `the worker of job ${this.#options.setup.jobId} is closed; no ${kind} request can be served`));
    }
    const thread = (this.#thread ??= this.#start());
    const id = this.#nextId++;
    return new Promise<WorkerRequests[K]['response']>((resolve, reject) => {
      const pending: Pending = {
        resolve: resolve as (result: unknown) => void,
        reject,
        startTimer: () => {
          pending.timer = setTimeout(() => {
            const cause = new WeirError(JobManagerErrorCode.USER_CODE_TIMEOUT, `${options.what} did not return within ${durationText(options.timeoutMs)}`);
            reject(cause);
            this.#pending.delete(id);
            void this.#end(thread, cause);
          }, options.timeoutMs);
        },
      };
      this.#pending.set(id, pending);
      if (this.#ready) pending.startTimer();
      thread.postMessage({ type: 'request', id, kind, payload } satisfies RequestMessage);
    });
  }

  onDeath(listener: (cause: WeirError) => void): void {
    this.#deathListeners.push(listener);
  }

  enumerators(): EnumeratorHost {
    return {
      send: (command) => {
        const { args, defaults } = this.#options.enumeratorGraph;
        // A failed or timed-out command ends in the worker's death or an answer with the error: the job fails over either way.
        this.request('enumerator', { args, defaults, command }, { timeoutMs: ENUMERATOR_CALL_TIMEOUT_MS, what: `the job's split enumerator (${command.type})` }).catch(
          (err: unknown) => this.#eventListener?.({ type: 'failed', operatorId: command.operatorId, message: (err as Error).message, ...(err instanceof WeirError && { code: err.code }) }),
        );
      },
      onEvent: (listener) => {
        this.#eventListener = listener;
      },
      // The enumerators live as long as the worker; the JobMaster closes that.
      close: async () => {
        this.#eventListener = undefined;
      },
    };
  }

  jobEnded(status: JobEndStatus): Promise<readonly string[]> {
    const { args, defaults } = this.#options.enumeratorGraph;
    return this.request('jobEnded', { args, defaults, status }, { timeoutMs: JOB_ENDED_TIMEOUT_MS, what: "the job's sources' jobEnded" });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const thread = this.#thread;
    if (thread !== undefined) await this.#end(thread, new WeirError(JobManagerErrorCode.USER_CODE_FAILED, `the worker of job ${this.#options.setup.jobId} was closed`));
  }

  #start(): Worker {
    const { setup, heapSizeBytes, logger } = this.#options;
    const thread = new Worker(bootstrapScript(), {
      eval: true,
      workerData: setup,
      // A copy of the few variables a job needs, not the JobManager's own (its S3 keys, say).
      env: jobWorkerEnvironment(process.env),
      resourceLimits: { maxOldGenerationSizeMb: Math.max(1, Math.ceil(heapSizeBytes / 1024 ** 2)) },
    });
    this.#ready = false;
    this.#ending = undefined;
    this.#error = undefined;
    thread.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') this.#started();
      else if (message.type === 'event') this.#eventListener?.(message.event);
      else this.#answer(message);
    });
    thread.on('error', (err) => (this.#error = err));
    thread.on('exit', (exitCode) => this.#exited(thread, exitCode));
    // Idle, it must not keep the JobManager's event loop alive at shutdown.
    thread.unref();
    logger.debug({ threadId: thread.threadId }, 'job worker started');
    return thread;
  }

  #started(): void {
    this.#ready = true;
    for (const pending of this.#pending.values()) pending.startTimer();
  }

  #answer(message: ResponseMessage): void {
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new WeirError(message.error.code ?? JobManagerErrorCode.USER_CODE_FAILED, message.error.message));
  }

  #end(thread: Worker, cause: WeirError): Promise<void> {
    this.#ending ??= cause;
    return thread.terminate().then(() => undefined);
  }

  #exited(thread: Worker, exitCode: number): void {
    if (this.#thread !== thread) return;
    this.#thread = undefined;
    const expected = this.#ending;
    const cause = expected ?? this.#deathCause(exitCode);
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(cause);
      this.#pending.delete(id);
    }
    this.#options.logger.debug({ exitCode, cause: cause.message }, 'job worker ended');
    if (this.#closed) return;
    this.#options.logger.warn({ code: cause.code, cause: cause.message }, "the job's worker thread ended");
    for (const listener of this.#deathListeners) listener(cause);
  }

  #deathCause(exitCode: number): WeirError {
    const err = this.#error;
    const heap = memorySizeText(this.#options.heapSizeBytes);
    if ((err as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new WeirError(
        JobManagerErrorCode.USER_CODE_FAILED,
        `the job's code ran out of memory in its worker on the JobManager (heap limit ${heap}, jobmanager.user-code.heap-size); build smaller objects in main, or raise the limit`,
        { cause: err },
      );
    }
    if (err !== undefined) {
      return new WeirError(JobManagerErrorCode.USER_CODE_FAILED, `the job's code threw outside of any call into it, which ended its worker on the JobManager: ${err.stack ?? err.message}`, { cause: err });
    }
    return new WeirError(JobManagerErrorCode.USER_CODE_FAILED, `the job's worker on the JobManager ended with exit code ${exitCode} (the job's code called process.exit(${exitCode})?)`);
  }
}

const moduleExtension = extname(fileURLToPath(import.meta.url));

/**
 * The worker's entry is `worker-main` beside this module: `src/user-code/worker-main.ts` when
 * run from sources (unit tests), `dist/worker-main.js` beside the compiled `dist/index.js`
 * (scripts/build.mjs builds it as an entry of its own). A worker cannot start from a .ts file,
 * since Node's loader hooks (tsx's) do not reach a worker's entry: from sources the worker
 * registers tsx first.
 */
function bootstrapScript(): string {
  const entry = new URL(`./worker-main${moduleExtension}`, import.meta.url).href;
  const register = moduleExtension === '.ts' ? `(await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})).register();` : '';
  return `(async () => { ${register} await import(${JSON.stringify(entry)}); })();`;
}
