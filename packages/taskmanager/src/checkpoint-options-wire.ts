import { CHECKPOINT_OPTIONS, WeirError, type CheckpointOptions } from '@weir/common';
import type { CheckpointOptions as CheckpointOptionsMessage, CheckpointOptions__Output } from '@weir/rpc';
import { TaskManagerErrorCode } from './errors.ts';

const TYPES = { CHECKPOINT: 'checkpoint', SAVEPOINT: 'savepoint' } as const;
const TERMINATE = { SUSPEND: 'suspend', DRAIN: 'drain' } as const;

/**
 * The proto's CheckpointOptions (TriggerCheckpoint.options, CheckpointBarrier.options) as
 * common's CheckpointOptions. Unset, or an empty type, is a plain checkpoint. An unknown type
 * or terminate value throws INVALID_CHECKPOINT_OPTIONS.
 */
export function fromCheckpointOptionsMessage(message: CheckpointOptions__Output | null | undefined): CheckpointOptions {
  if (message === null || message === undefined || message.type === '') return CHECKPOINT_OPTIONS;
  const type = TYPES[message.type.toUpperCase() as keyof typeof TYPES];
  if (type === undefined) throw invalid(`type ${JSON.stringify(message.type)}; it must be CHECKPOINT or SAVEPOINT`);
  const terminate = message.terminate === '' ? undefined : TERMINATE[message.terminate.toUpperCase() as keyof typeof TERMINATE];
  if (message.terminate !== '' && terminate === undefined) throw invalid(`terminate ${JSON.stringify(message.terminate)}; it must be empty, SUSPEND or DRAIN`);
  if (terminate !== undefined && type !== 'savepoint') throw invalid(`terminate ${message.terminate} on a ${message.type}; only a savepoint may end the job`);
  if (type === 'checkpoint' && message.targetLocation === '') return CHECKPOINT_OPTIONS;
  return {
    type,
    ...(terminate === undefined ? {} : { terminate }),
    ...(message.targetLocation === '' ? {} : { targetLocation: message.targetLocation }),
  };
}

export function toCheckpointOptionsMessage(options: CheckpointOptions): CheckpointOptionsMessage {
  return {
    type: options.type === 'savepoint' ? 'SAVEPOINT' : 'CHECKPOINT',
    terminate: options.terminate === undefined ? '' : options.terminate.toUpperCase(),
    targetLocation: options.targetLocation ?? '',
  };
}

function invalid(what: string): WeirError {
  return new WeirError(TaskManagerErrorCode.INVALID_CHECKPOINT_OPTIONS, `checkpoint options with ${what}`);
}
