import type { Committer, ListState } from '@weir/api';
import type { FailureWrapper } from './operator-failure.ts';

/** One checkpoint's committables as the "$sink-committables" list keeps them. */
export interface CheckpointCommittables {
  readonly checkpointId: number;
  readonly committables: readonly unknown[];
}

/**
 * The committables a sink prepared for checkpoints that have not completed yet, mirrored in
 * the operator list so every checkpoint carries them. A completed checkpoint commits its own
 * and every older one's (an aborted checkpoint's committables go with the next completed).
 */
export class PendingCommittables {
  constructor(
    private readonly committer: Committer<unknown>,
    private readonly list: ListState<unknown> & { readonly entries: readonly unknown[] },
    private readonly failures: FailureWrapper,
  ) {}

  add(checkpointId: number, committables: readonly unknown[]): void {
    if (committables.length === 0) return;
    const entry: CheckpointCommittables = { checkpointId, committables: [...committables] };
    this.list.add(entry);
  }

  /** Restore: commits everything the restored checkpoint promised. */
  commitAll(): Promise<void> {
    return this.commitUpTo(Number.POSITIVE_INFINITY);
  }

  async commitUpTo(checkpointId: number): Promise<void> {
    const entries = this.list.entries as readonly CheckpointCommittables[];
    const due = entries.filter((e) => e.checkpointId <= checkpointId).sort((a, b) => a.checkpointId - b.checkpointId);
    if (due.length === 0) return;
    const committer = this.committer;
    await this.failures.call(() => committer.commit(due.flatMap((e) => e.committables)));
    this.list.update(this.list.entries.filter((e) => !due.includes(e as CheckpointCommittables)));
  }
}
