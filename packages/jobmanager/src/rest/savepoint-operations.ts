import { randomBytes } from 'node:crypto';
import { WeirError, describeError } from '@weir/common';
import type { TriggerSavepointResponse } from '@weir/rpc';
import { RestErrorCode } from './rest-errors.ts';

/** What an operation takes: a savepoint (or stop), or an on-demand checkpoint; each is polled at its own URL. */
export type OperationKind = 'savepoint' | 'checkpoint';

/** A savepoint, stop or checkpoint triggered through the REST API, which the client polls (Flink's asynchronous operation). */
export interface SavepointOperation {
  readonly kind: OperationKind;
  readonly jobId: string;
  readonly triggerId: string;
  readonly status: 'IN_PROGRESS' | 'COMPLETED';
  /** Set once the savepoint completed. */
  readonly location?: string;
  readonly checkpointId?: number;
  /** Set when it failed (status COMPLETED, as in Flink). */
  readonly failure?: { readonly code: string; readonly message: string };
}

/** The operations of the last `capacity` triggers, by trigger ID; older ones are forgotten. */
export class SavepointOperations {
  readonly #operations = new Map<string, SavepointOperation>();

  constructor(private readonly capacity = 100) {}

  /** Runs `savepoint` (a checkpoint with kind `checkpoint`) in the background and returns the trigger ID to poll it with. */
  start(jobId: string, savepoint: Promise<TriggerSavepointResponse>, kind: OperationKind = 'savepoint'): string {
    const triggerId = randomBytes(16).toString('hex');
    this.#set({ kind, jobId, triggerId, status: 'IN_PROGRESS' });
    savepoint.then(
      (done) => this.#set({ kind, jobId, triggerId, status: 'COMPLETED', location: done.savepointPath, checkpointId: Number(done.checkpointId) }),
      (err: unknown) =>
        this.#set({
          kind,
          jobId,
          triggerId,
          status: 'COMPLETED',
          failure: { code: err instanceof WeirError ? err.code : 'INTERNAL', message: err instanceof WeirError ? err.message : describeError(err) },
        }),
    );
    return triggerId;
  }

  /** The operation; TRIGGER_NOT_FOUND when this job had no trigger with that ID (or it was forgotten). */
  get(jobId: string, triggerId: string, kind: OperationKind = 'savepoint'): SavepointOperation {
    const operation = this.#operations.get(triggerId);
    if (operation === undefined || operation.jobId !== jobId || operation.kind !== kind) {
      throw new WeirError(RestErrorCode.TRIGGER_NOT_FOUND, `job ${jobId} has no ${kind} triggered with request ID '${triggerId}'; POST /jobs/${jobId}/${kind}s answers with the ID to poll`);
    }
    return operation;
  }

  #set(operation: SavepointOperation): void {
    this.#operations.delete(operation.triggerId);
    this.#operations.set(operation.triggerId, operation);
    while (this.#operations.size > this.capacity) this.#operations.delete(this.#operations.keys().next().value!);
  }
}
