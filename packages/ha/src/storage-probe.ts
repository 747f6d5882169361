import { randomBytes } from 'node:crypto';
import { WeirError, describeError } from '@weir/common';
import { displayLocation, type Storage } from '@weir/storage';
import { HaErrorCode } from './errors.ts';

/** Writes, reads back and deletes a probe file, so an unusable storageDir stops the JobManager at start with HA_STORAGE_NOT_WRITABLE. */
export async function probeStorageDir(storage: Storage): Promise<void> {
  const name = `.probe-${randomBytes(6).toString('hex')}`;
  try {
    await storage.write(name, Buffer.from('weir'));
    await storage.read(name);
    await storage.delete(name);
  } catch (err) {
    throw new WeirError(
      HaErrorCode.HA_STORAGE_NOT_WRITABLE,
      `high-availability.storageDir ${displayLocation(storage.url)} is not writable (${describeError(err)}): the leader keeps submitted jobs there, so every JobManager must be able to write it`,
      { cause: err },
    );
  }
}
