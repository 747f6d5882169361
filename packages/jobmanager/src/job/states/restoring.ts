import { JobStatus } from '@weir/common';
import type { RestoreOutcome } from '../../checkpoint/restore-point.ts';
import { afterTasksStopped } from '../failover.ts';
import type { JobContext } from '../job-context.ts';
import { CanceledState } from './canceled.ts';
import { FailedState } from './failed.ts';
import { JobState } from './job-state.ts';
import { InitializingTasksState } from './running.ts';
import { WaitingForSlotsState } from './awaiting-slots.ts';

/**
 * A new attempt looks up the checkpoint it restores (re-reading `_metadata` from storage),
 * then deploys, or waits for slots when a lost TaskManager's replacement has not registered yet.
 */
export class RestoringState extends JobState {
  readonly status = JobStatus.RESTARTING;

  override onRestoreLoaded(ctx: JobContext, outcome: RestoreOutcome): JobState {
    switch (outcome.kind) {
      case 'fatal':
        ctx.recordFailure(outcome.cause);
        return new FailedState();
      case 'retry':
        ctx.recordFailure(outcome.cause);
        return afterTasksStopped(ctx);
      case 'fresh':
      case 'checkpoint':
        ctx.restoreFrom(outcome.kind === 'checkpoint' ? outcome.point : undefined);
        if (ctx.tryDeploy()) return new InitializingTasksState(JobStatus.RESTARTING);
        ctx.awaitSlots();
        return new WaitingForSlotsState();
    }
  }

  override onCancel(): JobState {
    return new CanceledState();
  }
}
