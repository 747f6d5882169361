import { WeirError } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';

/**
 * Whether an on-demand checkpoint request asks for a full checkpoint: Flink's checkpointType
 * FULL; INCREMENTAL and CONFIGURED ('' or absent too) take the job's configured kind. Weir's
 * LevelDB backend is incremental only when state.backend.incremental is on, so INCREMENTAL
 * on a job configured for full checkpoints takes a full one. So does Flink 1.19: refusing it
 * was proposed (FLINK-33498, FLINK-33723) and is in no release, and its CLI only offers
 * `--full`, as `weir checkpoint` does. Anything else: INVALID_CHECKPOINT_REQUEST.
 */
export function isFullCheckpoint(checkpointType: string | undefined): boolean {
  const type = (checkpointType ?? '').trim().toUpperCase();
  if (type === 'FULL') return true;
  if (type === '' || type === 'CONFIGURED' || type === 'INCREMENTAL') return false;
  throw new WeirError(JobManagerErrorCode.INVALID_CHECKPOINT_REQUEST, `checkpoint type ${JSON.stringify(checkpointType)}: it must be FULL, INCREMENTAL or CONFIGURED`);
}
