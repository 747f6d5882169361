import { asyncTimeoutError, type AsyncFunction, type AsyncWaitSettings, type Collector, type ResultFuture } from '@weir/api';
import { FunctionOperator } from '../function-operator.ts';
import type { OperatorContext } from '../operator-context.ts';
import type { Output } from '../output.ts';
import { InternalList } from '../../state/operator-state-store.ts';
import { AsyncQueue, type RecordEntry, type SnapshotEntry } from './async-queue.ts';

/**
 * Flink's AsyncWaitOperator. Each record goes to `fn.asyncInvoke` with a ResultFuture; at most
 * `capacity` are in flight. With `capacity` records in the queue it blocks the chain
 * (ChainBackPressure): the task takes no input and the timers of a chained upstream operator
 * stop firing until a result leaves, where Flink yields to the mailbox inside
 * `processElement`. What a chained upstream emits within one record or timer after that (a
 * flatMap's many outputs) waits in the queue un-invoked, as a JavaScript `collect` cannot
 * suspend. Results come back on the task's loop (mail, never in
 * the middle of another record or between a snapshot and its barrier) and leave in input order
 * (ordered) or as they complete within watermarks (unordered), with their input's timestamp.
 *
 * Each input has `timeoutMs` from its first attempt, retries included; then `fn.timeout()`
 * decides, by default failing the job with ASYNC_TIMEOUT. A retry strategy tries an input
 * again after its backoff when its predicates say so. A checkpoint keeps every input still in
 * the queue (and its watermarks) as operator list state; a restore invokes them again, so
 * with an exactly-once sink each input's results are in the output once.
 *
 * Its timers are the clock's, not the task's processing-time service: at the end of input the
 * task quiesces that service while `finish` still waits for the last inputs, their timeouts
 * and retries included.
 */
export class AsyncWaitOperator extends FunctionOperator<AsyncFunction<unknown, unknown>> {
  readonly inputs: readonly Collector<unknown>[];
  readonly #queue: AsyncQueue;
  /** Completions and timer firings, run in order by `#runActions` (from mail, or at once while finishing). */
  readonly #actions: (() => void)[] = [];
  /** Unblocks the chain (ChainBackPressure) once the queue is below capacity. */
  #blocked: (() => void) | undefined;
  /** Set from `finish` on: actions run as they come, and a failure or the last result settles it. */
  #finishing: { wake: () => void; fail: (err: unknown) => void } | undefined;
  #closed = false;

  constructor(
    fn: AsyncFunction<unknown, unknown>,
    private readonly settings: AsyncWaitSettings,
    out: Output,
    context: OperatorContext,
  ) {
    super(fn, out, context);
    this.#queue = new AsyncQueue(settings.mode);
    this.inputs = [{ collect: (record) => this.#add(record, context.timestamp.value) }];
  }

  override async open(): Promise<void> {
    await super.open();
    if (!this.context.restored) return;
    const restored = [...this.#list().get()] as SnapshotEntry[];
    this.#list().clear();
    // As Flink's AsyncWaitOperator: the inputs of the restored queue are invoked again, in order.
    for (const entry of restored) {
      if ('w' in entry) this.processWatermark(entry.w);
      else this.#add(entry.v, entry.t);
    }
  }

  override processWatermark(timestamp: number): void {
    if (this.#queue.isEmpty) this.out.emitWatermark(timestamp);
    else this.#queue.addWatermark(timestamp);
  }

  override async snapshotState(checkpointId: number, timestamp: number): Promise<void> {
    this.#list().update(this.#queue.snapshot());
    await super.snapshotState(checkpointId, timestamp);
  }

  /** End of input: waits until every input's results are out (timeouts and retries still run), as Flink's endInput. */
  override async finish(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const wake = (): void => {
        if (this.#queue.isEmpty) resolve();
      };
      this.#finishing = { wake, fail: reject };
      this.#runActions();
      wake();
    });
    await super.finish();
  }

  override async close(): Promise<void> {
    this.#closed = true;
    for (const entry of this.#queue.recordEntries()) entry.cancelTimers?.();
    this.#blocked?.();
    await super.close();
  }

  #list() {
    return this.context.lists.internal(InternalList.ASYNC_WAIT_QUEUE);
  }

  #add(input: unknown, timestamp: number | undefined): void {
    this.#queue.addRecord(input, timestamp);
    this.#startReady();
    if (this.#queue.records >= this.settings.capacity && this.#blocked === undefined) this.#blocked = this.context.work.chain.block();
  }

  #startReady(): void {
    for (const entry of this.#queue.toStart(this.settings.capacity)) {
      entry.started = true;
      this.#queue.started++;
      this.#startTimeout(entry);
      this.#invoke(entry);
    }
  }

  #startTimeout(entry: RecordEntry): void {
    const clock = this.context.clock;
    const handle = clock.setTimeout(() => this.#deliver(() => this.#onTimeout(entry)), this.settings.timeoutMs);
    entry.cancelTimers = () => clock.clearTimeout(handle);
  }

  #invoke(entry: RecordEntry): void {
    const attempt = ++entry.attempts;
    const current = (): boolean => !this.#closed && entry.results === undefined && entry.attempts === attempt;
    let done = false;
    const future: ResultFuture<unknown> = {
      complete: (results) => {
        if (done) return;
        done = true;
        const records = results === undefined || results === null ? [] : [...results];
        this.#deliver(() => current() && this.#onResult(entry, records));
      },
      completeExceptionally: (error) => {
        if (done) return;
        done = true;
        this.#deliver(() => current() && this.#onError(entry, error));
      },
    };
    try {
      const returned = this.fn.asyncInvoke(entry.input, future);
      if (returned !== undefined && typeof (returned as Promise<unknown>).then === 'function') {
        (returned as Promise<Iterable<unknown> | void>).then(
          (results) => {
            if (results !== undefined) future.complete(results);
          },
          (err: unknown) => future.completeExceptionally(err),
        );
      }
    } catch (err) {
      future.completeExceptionally(err);
    }
  }

  #onResult(entry: RecordEntry, records: unknown[]): void {
    const retry = this.settings.retry;
    const predicate = retry?.getRetryPredicate().resultPredicate;
    if (retry !== undefined && predicate !== undefined && this.context.failures.run(() => predicate(records)) && retry.canRetry(entry.attempts)) {
      entry.lastResults = records;
      this.#scheduleRetry(entry);
      return;
    }
    this.#complete(entry, records);
  }

  #onError(entry: RecordEntry, error: unknown): void {
    const retry = this.settings.retry;
    const predicate = retry?.getRetryPredicate().exceptionPredicate;
    if (retry !== undefined && predicate !== undefined && this.context.failures.run(() => predicate(error)) && retry.canRetry(entry.attempts)) {
      this.#scheduleRetry(entry);
      return;
    }
    throw this.context.failures.wrap(error);
  }

  #scheduleRetry(entry: RecordEntry): void {
    const clock = this.context.clock;
    const backoff = Math.max(0, this.settings.retry!.getBackoffTimeMillis(entry.attempts));
    const handle = clock.setTimeout(() => this.#deliver(() => entry.results === undefined && !this.#closed && this.#invoke(entry)), backoff);
    const cancelTimeout = entry.cancelTimers;
    entry.cancelTimers = () => {
      cancelTimeout?.();
      clock.clearTimeout(handle);
    };
  }

  /** The input's time is up: the results a retried attempt left (as Flink), else `fn.timeout()`, by default a failure. */
  #onTimeout(entry: RecordEntry): void {
    if (entry.results !== undefined || this.#closed) return;
    entry.cancelTimers?.();
    // A later completion of the running attempt is stale from now on.
    entry.attempts++;
    if (entry.lastResults !== undefined) {
      this.#complete(entry, entry.lastResults);
      return;
    }
    let outcome: { results: unknown[] } | { error: unknown } | undefined;
    const future: ResultFuture<unknown> = {
      complete: (results) => void (outcome ??= { results: results === undefined || results === null ? [] : [...results] }),
      completeExceptionally: (error) => void (outcome ??= { error }),
    };
    const timeout = this.fn.timeout;
    if (typeof timeout === 'function') this.context.failures.run(() => timeout.call(this.fn, entry.input, future));
    else future.completeExceptionally(asyncTimeoutError(entry.input, this.settings.timeoutMs));
    if (outcome === undefined) outcome = { error: asyncTimeoutError(entry.input, this.settings.timeoutMs) };
    if ('error' in outcome) throw this.context.failures.wrap(outcome.error);
    this.#complete(entry, outcome.results);
  }

  #complete(entry: RecordEntry, records: unknown[]): void {
    entry.cancelTimers?.();
    entry.results = records;
    this.#emitCompleted();
  }

  /** Emits what may leave, starts what now fits, and lets the task go on once below capacity. */
  #emitCompleted(): void {
    const slot = this.context.timestamp;
    const previous = slot.value;
    try {
      for (const entry of this.#queue.takeEmittable()) {
        if (entry.kind === 'watermark') {
          this.out.emitWatermark(entry.timestamp);
          continue;
        }
        slot.value = entry.timestamp;
        for (const record of entry.results!) this.out.collect(record);
      }
    } finally {
      slot.value = previous;
    }
    this.#startReady();
    if (this.#queue.records < this.settings.capacity && this.#blocked !== undefined) {
      const unblock = this.#blocked;
      this.#blocked = undefined;
      unblock();
    }
  }

  /**
   * Runs `action` on the task's loop: as mail, after the running step (a checkpoint's snapshot
   * and barrier) when there is one; at once while finishing, when the loop no longer runs.
   */
  #deliver(action: () => void): void {
    this.#actions.push(action);
    if (this.#finishing !== undefined) {
      this.#runActions();
      return;
    }
    this.context.mail(() => this.context.work.runOrDefer(() => this.#runActions()));
  }

  #runActions(): void {
    const finishing = this.#finishing;
    try {
      for (let action = this.#actions.shift(); action !== undefined; action = this.#actions.shift()) action();
    } catch (err) {
      if (finishing === undefined) throw err;
      finishing.fail(err);
      return;
    }
    finishing?.wake();
  }
}
