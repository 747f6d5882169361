import { WeirError, quoteInput } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';

/** How a stop ends the sources: `suspend` right after the savepoint, `drain` before it (operators flush first). */
export type StopTermination = 'suspend' | 'drain';

/** What happens to the job once its savepoint is written. */
export type SavepointMode =
  | { readonly kind: 'keep-running' }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'stop'; readonly terminate: StopTermination };

export const SavepointMode = {
  keepRunning: (): SavepointMode => ({ kind: 'keep-running' }),
  cancel: (): SavepointMode => ({ kind: 'cancel' }),
  stop: (): SavepointMode => ({ kind: 'stop', terminate: 'suspend' }),
  stopDraining: (): SavepointMode => ({ kind: 'stop', terminate: 'drain' }),
} as const;

/** TriggerSavepointRequest.terminate values, as the proto spells them. */
export const SavepointTerminate = {
  NONE: '',
  CANCEL: 'CANCEL',
  STOP: 'STOP',
} as const;

/** The mode a TriggerSavepointRequest asks for; INVALID_SAVEPOINT_REQUEST for an unknown terminate or a drain without STOP. */
export function parseSavepointMode(terminate: string, drain: boolean): SavepointMode {
  if (drain && terminate !== SavepointTerminate.STOP) {
    throw new WeirError(
      JobManagerErrorCode.INVALID_SAVEPOINT_REQUEST,
      `drain only applies to stop-with-savepoint (terminate STOP), not to terminate ${quoteInput(terminate)}; use \`weir stop --drain\``,
    );
  }
  switch (terminate) {
    case SavepointTerminate.NONE:
      return SavepointMode.keepRunning();
    case SavepointTerminate.CANCEL:
      return SavepointMode.cancel();
    case SavepointTerminate.STOP:
      return drain ? SavepointMode.stopDraining() : SavepointMode.stop();
    default:
      throw new WeirError(
        JobManagerErrorCode.INVALID_SAVEPOINT_REQUEST,
        `unknown savepoint terminate mode ${quoteInput(terminate)}; use '' (the job goes on), CANCEL or STOP`,
      );
  }
}
