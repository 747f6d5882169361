import { SplitEnumeratorRunner, type SourceSplit, type SplitSource } from '@weir/api';
import { describeError, WeirError } from '@weir/common';

/**
 * What the JobManager asks of the place where a job's split enumerators run. User code (the
 * sources) lives there, so the JobManager reaches it only through these messages and hears
 * back only through HostEvents, in order: today this process (InProcessEnumeratorHost), the
 * job's own worker once user code leaves the JobManager's thread.
 */
export type HostCommand =
  /** A fresh enumerator (or one restored from `restored`) for the operator, replacing any running one. */
  | { readonly type: 'create'; readonly operatorId: string; readonly parallelism: number; readonly restored?: unknown }
  | { readonly type: 'reader-registered'; readonly operatorId: string; readonly subtask: number }
  | { readonly type: 'split-request'; readonly operatorId: string; readonly subtask: number }
  | { readonly type: 'splits-back'; readonly operatorId: string; readonly subtask: number; readonly splits: readonly SourceSplit[] }
  | { readonly type: 'snapshot'; readonly operatorId: string; readonly checkpointId: number }
  | { readonly type: 'checkpoint-complete'; readonly operatorId: string; readonly checkpointId: number }
  | { readonly type: 'close'; readonly operatorId: string };

export type HostEvent =
  | { readonly type: 'add-splits'; readonly operatorId: string; readonly subtask: number; readonly splits: readonly SourceSplit[] }
  | { readonly type: 'no-more-splits'; readonly operatorId: string; readonly subtask: number }
  | { readonly type: 'snapshot'; readonly operatorId: string; readonly checkpointId: number; readonly state: unknown }
  /** The enumerator threw (or could not be created, or snapshotted): the job must fail over. */
  | { readonly type: 'failed'; readonly operatorId: string; readonly message: string; readonly code?: string; readonly checkpointId?: number };

export interface EnumeratorHost {
  send(command: HostCommand): void;
  /** Every event, in the order the enumerators produced them. */
  onEvent(listener: (event: HostEvent) => void): void;
  close(): Promise<void>;
}

/**
 * Runs the enumerators in this process. Commands are handled one after another in a later
 * microtask, so the caller never sees events while it is still sending, as with a worker.
 */
export class InProcessEnumeratorHost implements EnumeratorHost {
  readonly #runners = new Map<string, SplitEnumeratorRunner>();
  readonly #queue: HostCommand[] = [];
  #listener: ((event: HostEvent) => void) | undefined;
  #draining = false;
  #closed = false;

  constructor(private readonly sources: ReadonlyMap<string, SplitSource<unknown, SourceSplit, unknown>>) {}

  send(command: HostCommand): void {
    if (this.#closed) return;
    this.#queue.push(command);
    if (this.#draining) return;
    this.#draining = true;
    queueMicrotask(() => {
      for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) this.#handle(next);
      this.#draining = false;
    });
  }

  onEvent(listener: (event: HostEvent) => void): void {
    this.#listener = listener;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.length = 0;
    const runners = [...this.#runners.values()];
    this.#runners.clear();
    await Promise.allSettled(runners.map((r) => r.close()));
  }

  #handle(command: HostCommand): void {
    const { operatorId } = command;
    if (command.type === 'create') {
      this.#create(command);
      return;
    }
    const runner = this.#runners.get(operatorId);
    if (runner === undefined) return;
    switch (command.type) {
      case 'reader-registered':
        runner.addReader(command.subtask);
        break;
      case 'split-request':
        runner.handleSplitRequest(command.subtask);
        break;
      case 'splits-back':
        runner.addSplitsBack(command.splits, command.subtask);
        break;
      case 'snapshot':
        try {
          this.#emit({ type: 'snapshot', operatorId, checkpointId: command.checkpointId, state: runner.snapshot(command.checkpointId) });
        } catch (err) {
          this.#emit({ type: 'failed', operatorId, checkpointId: command.checkpointId, message: `its enumerator's snapshotState failed: ${describeError(err)}`, ...codeOf(err) });
        }
        break;
      case 'checkpoint-complete':
        runner.notifyCheckpointComplete(command.checkpointId);
        break;
      case 'close':
        this.#runners.delete(operatorId);
        void runner.close().catch(() => {});
        break;
    }
  }

  #create(command: Extract<HostCommand, { type: 'create' }>): void {
    const { operatorId } = command;
    const previous = this.#runners.get(operatorId);
    this.#runners.delete(operatorId);
    void previous?.close().catch(() => {});
    const source = this.sources.get(operatorId);
    if (source === undefined) {
      this.#emit({ type: 'failed', operatorId, message: `the job has no split source with operator ID ${operatorId}` });
      return;
    }
    let runner: SplitEnumeratorRunner;
    try {
      runner = new SplitEnumeratorRunner(source, {
        parallelism: command.parallelism,
        ...(command.restored === undefined ? {} : { restored: command.restored }),
        output: (out) => {
          if (this.#runners.get(operatorId) !== runner) return;
          if (out.kind === 'failed') this.#emit({ type: 'failed', operatorId, message: describeError(out.error), ...codeOf(out.error) });
          else if (out.kind === 'add-splits') this.#emit({ type: 'add-splits', operatorId, subtask: out.subtask, splits: out.splits });
          else this.#emit({ type: 'no-more-splits', operatorId, subtask: out.subtask });
        },
      });
    } catch (err) {
      this.#emit({ type: 'failed', operatorId, message: `its enumerator could not be ${command.restored === undefined ? 'created' : 'restored'}: ${describeError(err)}`, ...codeOf(err) });
      return;
    }
    this.#runners.set(operatorId, runner);
    runner.start();
  }

  #emit(event: HostEvent): void {
    if (!this.#closed) this.#listener?.(event);
  }
}

function codeOf(err: unknown): { code?: string } {
  return err instanceof WeirError ? { code: err.code } : {};
}
