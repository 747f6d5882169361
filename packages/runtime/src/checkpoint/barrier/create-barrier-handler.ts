import type { Clock } from '@weir/common';
import type { InputGate } from '../../input/input-gate.ts';
import type { TaskCheckpointing } from '../types.ts';
import type { CheckpointActions, CheckpointBarrierHandler } from './barrier-handler.ts';
import { BarrierTracker } from './barrier-tracker.ts';
import { SingleCheckpointBarrierHandler } from './single-checkpoint-barrier-handler.ts';

/**
 * The barrier handler of a task with network input: exactly-once aligns (or goes unaligned as
 * the settings say), at-least-once only tracks. `runOnTaskLoop` puts a timed action (the
 * aligned-checkpoint timeout) on the task's mailbox.
 */
export function createBarrierHandler(
  settings: TaskCheckpointing,
  gate: InputGate,
  clock: Clock,
  actions: CheckpointActions,
  runOnTaskLoop: (action: () => void) => void,
): CheckpointBarrierHandler {
  const context = {
    gate,
    clock,
    actions,
    ...(settings.unaligned ? { unaligned: { alignedCheckpointTimeoutMs: settings.alignedCheckpointTimeoutMs } } : {}),
    schedule: (delayMs: number, action: () => void) => {
      const handle = clock.setTimeout(() => runOnTaskLoop(action), delayMs);
      return () => clock.clearTimeout(handle);
    },
  };
  return settings.mode === 'EXACTLY_ONCE' ? new SingleCheckpointBarrierHandler(context) : new BarrierTracker(context);
}
