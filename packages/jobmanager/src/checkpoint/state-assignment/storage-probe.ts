import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWeirError } from '@weir/common';
import { StorageErrorCode, StorageTooLargeError, type Storage } from '@weir/storage';
import type { FileSizeProbe, StateFileRef } from './state-files.ts';

export interface ProbeDirectories {
  /** The directory holding `_metadata`: private files. */
  readonly checkpoint: Storage;
  /** The job's checkpoint directory: shared files; undefined when there is none to look in. */
  readonly job: Storage | undefined;
}

/**
 * Asks storage whether a referenced file is there. With `withSizes`, also how big: local
 * files by stat; the Storage interface has no size query, so other storage reads the file.
 * Without, only whether it exists (cheap enough before every failover).
 */
export function storageProbe(dirs: ProbeDirectories, withSizes: boolean): FileSizeProbe {
  return async (ref: StateFileRef) => {
    const storage = ref.location === 'shared' ? dirs.job : dirs.checkpoint;
    if (storage === undefined) return undefined;
    if (!withSizes) return (await storage.exists(ref.path)) ? ref.size : undefined;
    if (storage.url.startsWith('file:')) return localSize(join(fileURLToPath(storage.url), ref.path));
    try {
      return (await storage.read(ref.path, { maxBytes: ref.size })).byteLength;
    } catch (err) {
      if (isWeirError(err, StorageErrorCode.STORAGE_NOT_FOUND)) return undefined;
      // Refused on its size: a file bigger than recorded is not read into memory to be measured.
      if (err instanceof StorageTooLargeError) return err.size;
      throw err;
    }
  };
}

async function localSize(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}
