import type { ChildProcess } from 'node:child_process';
import type { JobEndStatus } from '@weir/api';
import { WeirError, durationText, memorySizeText, type Logger } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';
import type { JobDefaults } from '../job/job-spec.ts';
import type { EnumeratorHost, HostEvent } from '../source/enumerator-host.ts';
import { refChannel, unrefChannel, type WorkerProcessPool } from './worker-process.ts';
import type { JobManagerMessage, ResponseMessage, WorkerMessage, WorkerRequestKind, WorkerRequests, WorkerSetup } from './protocol.ts';

/** What the JobMaster keeps of its job's worker: notice of its death, and closing it when the job ends. */
export interface JobUserCode {
  /** `listener` hears of every end of the worker process the JobManager did not ask for, with its cause. */
  onDeath(listener: (cause: WeirError) => void): void;
  /** Ends the worker process; requests still waiting fail. Idempotent. */
  close(): Promise<void>;
  /** The job's split enumerators, run in the worker. */
  enumerators(): EnumeratorHost;
  /** Tells the job's split sources it ended for good (SplitSource.jobEnded); resolves to what failed, a line each. */
  jobEnded(status: JobEndStatus): Promise<readonly string[]>;
}

export interface JobWorkerOptions {
  readonly setup: WorkerSetup;
  /** jobmanager.user-code.heap-size, in bytes (the pool's processes have it), for messages. */
  readonly heapSizeBytes: number;
  /** Where the worker process comes from. */
  readonly pool: WorkerProcessPool;
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
  /** Started once the worker is ready, so the time to start a process does not count. */
  timer?: NodeJS.Timeout;
  readonly startTimer: () => void;
}

/**
 * A job's worker process on the JobManager, where all of the job's code on this side runs:
 * the bundle is evaluated there, never in the JobManager's process, so a main that loops,
 * exits, throws or eats memory ends (at worst) the worker, and a main cannot read what the
 * JobManager holds (its environment, its files: `sandbox.ts`). Requests go by kind
 * (`protocol.ts`) and each has a time limit; one that is not answered in time ends the
 * worker, since only that can stop a loop. The worker is taken from the pool with the first
 * request and again with the first request after it died.
 */
export class JobWorker implements JobUserCode {
  readonly #options: JobWorkerOptions;
  readonly #pending = new Map<number, Pending>();
  readonly #deathListeners: ((cause: WeirError) => void)[] = [];
  #eventListener: ((event: HostEvent) => void) | undefined;
  #thread: ChildProcess | undefined;
  #ready = false;
  /** Why the JobManager is ending the current process, when it is. */
  #ending: WeirError | undefined;
  /** The stack of an error the process reported before it exited. */
  #error: string | undefined;
  #stderrTail: () => string = () => '';
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
            this.#forget(id);
            void this.#end(thread, cause);
          }, options.timeoutMs);
        },
      };
      this.#pending.set(id, pending);
      // While an answer is awaited the channel keeps the JobManager's loop alive, as a thread's port did.
      refChannel(thread);
      if (this.#ready) pending.startTimer();
      this.#send(thread, { type: 'request', id, kind, payload });
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

  #start(): ChildProcess {
    const { setup, pool, logger } = this.#options;
    const worker = pool.take();
    const child = worker.child;
    this.#ready = false;
    this.#ending = undefined;
    this.#error = undefined;
    this.#stderrTail = worker.stderrTail;
    child.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') this.#started();
      else if (message.type === 'event') this.#eventListener?.(message.event);
      else if (message.type === 'fatal') this.#error = message.message;
      else this.#answer(message);
    });
    // Sending to a process that just died fails; its exit tells the cause.
    child.on('error', () => {});
    // 'close' comes after stderr is read to its end, where V8 says it ran out of heap.
    child.on('close', (exitCode, signal) => this.#exited(child, exitCode, signal));
    this.#send(child, { type: 'setup', setup });
    logger.debug({ pid: child.pid }, 'job worker assigned');
    return child;
  }

  #send(child: ChildProcess, message: JobManagerMessage): void {
    if (child.connected) child.send(message, (err) => err && this.#options.logger.debug({ err: err.message }, 'a message to the job worker was not delivered'));
  }

  #started(): void {
    this.#ready = true;
    for (const pending of this.#pending.values()) pending.startTimer();
  }

  #answer(message: ResponseMessage): void {
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#forget(message.id);
    clearTimeout(pending.timer);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new WeirError(message.error.code ?? JobManagerErrorCode.USER_CODE_FAILED, message.error.message));
  }

  #forget(id: number): void {
    this.#pending.delete(id);
    if (this.#pending.size === 0 && this.#thread !== undefined) unrefChannel(this.#thread);
  }

  #end(child: ChildProcess, cause: WeirError): Promise<void> {
    this.#ending ??= cause;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    // Only SIGKILL stops a loop in the job's code.
    child.kill('SIGKILL');
    return exited;
  }

  #exited(child: ChildProcess, exitCode: number | null, signal: NodeJS.Signals | null): void {
    if (this.#thread !== child) return;
    this.#thread = undefined;
    const expected = this.#ending;
    const cause = expected ?? this.#deathCause(exitCode, signal);
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(cause);
      this.#pending.delete(id);
    }
    this.#options.logger.debug({ exitCode, cause: cause.message }, 'job worker ended');
    if (this.#closed) return;
    this.#options.logger.warn({ code: cause.code, cause: cause.message }, "the job's worker process ended");
    for (const listener of this.#deathListeners) listener(cause);
  }

  #deathCause(exitCode: number | null, signal: NodeJS.Signals | null): WeirError {
    const err = this.#error;
    const heap = memorySizeText(this.#options.heapSizeBytes);
    // V8 prints "FATAL ERROR: … JavaScript heap out of memory" and aborts.
    if (/heap out of memory|Reached heap limit/.test(this.#stderrTail())) {
      return new WeirError(
        JobManagerErrorCode.USER_CODE_FAILED,
        `the job's code ran out of memory in its worker on the JobManager (heap limit ${heap}, jobmanager.user-code.heap-size); build smaller objects in main, or raise the limit`,
      );
    }
    if (err !== undefined) {
      return new WeirError(JobManagerErrorCode.USER_CODE_FAILED, `the job's code threw outside of any call into it, which ended its worker on the JobManager: ${err}`);
    }
    if (exitCode === null) return new WeirError(JobManagerErrorCode.USER_CODE_FAILED, `the job's worker process on the JobManager was ended by ${signal}`);
    return new WeirError(JobManagerErrorCode.USER_CODE_FAILED, `the job's worker on the JobManager ended with exit code ${exitCode} (the job's code called process.exit(${exitCode})?)`);
  }
}
