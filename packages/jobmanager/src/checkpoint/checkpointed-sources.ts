import { describeError } from '@weir/common';

/** What a checkpoint needs of the job's split sources (SourceCoordinators). */
export interface CheckpointedSources {
  readonly isEmpty: boolean;
  checkpoint(checkpointId: number): Promise<ReadonlyMap<string, unknown>>;
  /** The trigger went out, or the checkpoint was given up before it. */
  triggered(checkpointId: number): void;
  checkpointComplete(checkpointId: number): void;
}

export interface EnumeratorsFirst {
  readonly checkpointId: number;
  /** False once the checkpoint was given up while the enumerators were snapshotted. */
  stillPending(): boolean;
  /** Sends the triggers, with the enumerators' states when there are split sources. */
  send(states: ReadonlyMap<string, unknown> | undefined): void;
  abort(message: string): void;
}

/**
 * Split enumerators first: their state and the readers' splits must describe the same moment,
 * so the triggers go out once the enumerators' states are taken (at once without split sources).
 */
export function triggerAfterEnumerators(sources: CheckpointedSources | undefined, step: EnumeratorsFirst): void {
  if (sources === undefined || sources.isEmpty) {
    step.send(undefined);
    return;
  }
  const { checkpointId } = step;
  sources.checkpoint(checkpointId).then(
    (states) => {
      if (step.stillPending()) step.send(states);
      sources.triggered(checkpointId);
    },
    (err: unknown) => {
      sources.triggered(checkpointId);
      if (step.stillPending()) step.abort(describeError(err));
    },
  );
}
