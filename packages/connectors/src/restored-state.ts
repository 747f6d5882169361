import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from './errors.ts';

/** Marks a fresh start, as opposed to a restored state that happens to be empty. */
export const FRESH_START = Symbol('fresh start');

/**
 * The one reader state a source reader resumes from, or FRESH_START without restoredState.
 * At an unchanged parallelism a reader gets exactly its predecessor's state; any other count
 * means a rescale, which these sources cannot redistribute yet.
 */
export function singleReaderState(restoredState: readonly unknown[] | undefined, sourceName: string): unknown {
  if (restoredState === undefined) return FRESH_START;
  if (restoredState.length !== 1) {
    throw new WeirError(
      ConnectorErrorCode.RESCALE_NOT_SUPPORTED,
      `a ${sourceName} reader resumes from exactly one reader state, got ${restoredState.length}: ` +
        `changing the parallelism of a ${sourceName} restore is not supported yet; restore it at the parallelism of the checkpoint`,
    );
  }
  return restoredState[0];
}
