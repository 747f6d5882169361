import { WeirError } from '@weir/common';
import type { Storage } from '@weir/storage';
import { JobManagerErrorCode } from '../../errors.ts';
import type { HandleBytesReader } from './assign-state.ts';

/** Reads the state files of the checkpoint in `directory` (the one holding `_metadata`); undefined: none can be read (the memory backend keeps state inline). */
export function handleBytesIn(directory: Storage | undefined): HandleBytesReader {
  return async (handle) => {
    if (directory === undefined) {
      throw new WeirError(JobManagerErrorCode.INVALID_SAVEPOINT, `its state is in file ${handle.path}, but the checkpoint has no directory to read it from`);
    }
    // No more than _metadata recorded: a bigger file is not this state.
    return directory.read(handle.path, { maxBytes: handle.size });
  };
}
