import { CHECKPOINT_OPTIONS, WeirError, type CheckpointOptions } from '@weir/common';
import { RpcErrorCode } from '../errors.ts';
import type { CheckpointOptions as CheckpointOptionsMessage, CheckpointOptions__Output } from '../generated/weir/v1/CheckpointOptions.ts';

const TYPES = { CHECKPOINT: 'checkpoint', SAVEPOINT: 'savepoint' } as const;
const TERMINATE = { SUSPEND: 'suspend', DRAIN: 'drain' } as const;

/**
 * CheckpointOptions as TriggerCheckpoint and CheckpointBarrier carry them: type
 * CHECKPOINT|SAVEPOINT, terminate ''|SUSPEND|DRAIN. A plain checkpoint is sent unset, as the
 * proto allows.
 */
export function encodeCheckpointOptions(options: CheckpointOptions): CheckpointOptionsMessage | undefined {
  if (options.type === 'checkpoint' && options.targetLocation === undefined && options.full !== true) return undefined;
  return {
    type: options.type === 'savepoint' ? 'SAVEPOINT' : 'CHECKPOINT',
    terminate: options.terminate === undefined ? '' : options.terminate.toUpperCase(),
    targetLocation: options.targetLocation ?? '',
    full: options.full === true,
  };
}

/**
 * The options a message carries. Unset, or an empty type, is a plain checkpoint. An unknown
 * type or terminate value throws INVALID_CHECKPOINT_OPTIONS: a barrier or trigger with options
 * nobody can honour must not be taken as a plain checkpoint.
 */
export function decodeCheckpointOptions(message: CheckpointOptions__Output | null | undefined): CheckpointOptions {
  if (message === null || message === undefined || message.type === '') return CHECKPOINT_OPTIONS;
  const type = TYPES[message.type.toUpperCase() as keyof typeof TYPES];
  if (type === undefined) throw invalid(`type ${JSON.stringify(message.type)}; it must be CHECKPOINT or SAVEPOINT`);
  const terminate = message.terminate === '' ? undefined : TERMINATE[message.terminate.toUpperCase() as keyof typeof TERMINATE];
  if (message.terminate !== '' && terminate === undefined) throw invalid(`terminate ${JSON.stringify(message.terminate)}; it must be empty, SUSPEND or DRAIN`);
  if (terminate !== undefined && type !== 'savepoint') throw invalid(`terminate ${message.terminate} on a ${message.type}; only a savepoint may end the job`);
  if (message.full === true && type !== 'checkpoint') throw invalid(`full on a ${message.type}; a savepoint is always complete`);
  if (type === 'checkpoint' && message.targetLocation === '' && message.full !== true) return CHECKPOINT_OPTIONS;
  return {
    type,
    ...(message.full === true ? { full: true } : {}),
    ...(terminate === undefined ? {} : { terminate }),
    ...(message.targetLocation === '' ? {} : { targetLocation: message.targetLocation }),
  };
}

function invalid(what: string): WeirError {
  return new WeirError(RpcErrorCode.INVALID_CHECKPOINT_OPTIONS, `checkpoint options with ${what}`);
}
