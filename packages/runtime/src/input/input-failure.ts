import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { InputChannel } from './input-channel.ts';

/** An input channel's failure as the task reports it, keeping the cause's WeirError code. */
export function inputFailure(channel: InputChannel, cause: unknown): WeirError {
  const message = cause instanceof Error ? cause.message : String(cause);
  const code = cause instanceof WeirError ? cause.code : RuntimeErrorCode.INPUT_CHANNEL_FAILED;
  return new WeirError(code, `input from ${channel.description} failed: ${message}`, { cause });
}
