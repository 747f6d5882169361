import type { CheckpointOptions, WeirError } from '@weir/common';
import type { StopTermination } from './savepoint-mode.ts';
import type { SavepointTarget } from './savepoint-target.ts';

/** A savepoint whose `_metadata` was written. */
export interface CompletedSavepoint {
  readonly checkpointId: number;
  /** URL of the savepoint directory. */
  readonly path: string;
}

/** A savepoint the coordinator is taking: where it goes, whether the job stops after it, and the caller waiting for it. */
export class SavepointOperation {
  readonly promise: Promise<CompletedSavepoint>;
  #resolve!: (savepoint: CompletedSavepoint) => void;
  #reject!: (error: WeirError) => void;

  constructor(
    readonly target: SavepointTarget,
    /** Set for stop-with-savepoint. */
    readonly terminate: StopTermination | undefined,
  ) {
    this.promise = new Promise<CompletedSavepoint>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** A stop-with-savepoint: sinks commit it and it becomes the job's restore point. */
  get terminating(): boolean {
    return this.terminate !== undefined;
  }

  /** What the trigger and every barrier carry: tasks write the savepoint's files into its directory. */
  get options(): CheckpointOptions {
    return { type: 'savepoint', targetLocation: this.target.url, ...(this.terminate !== undefined && { terminate: this.terminate }) };
  }

  completed(checkpointId: number): void {
    this.#resolve({ checkpointId, path: this.target.url });
  }

  failed(error: WeirError): void {
    this.#reject(error);
  }
}
