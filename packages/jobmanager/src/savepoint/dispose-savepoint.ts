import { METADATA_FILE, WeirError, isWeirError, type Logger } from '@weir/common';
import { StorageErrorCode } from '@weir/storage';
import { JobManagerErrorCode } from '../errors.ts';
import type { StorageOpener } from '@weir/storage';

/**
 * Deletes the savepoint directory at `path` (a local path or URL) after reading its
 * `_metadata` and finding a savepoint's; anything else is NOT_A_SAVEPOINT naming the path and
 * what was there, with nothing deleted.
 */
export async function disposeSavepoint(path: string, open: StorageOpener, logger: Logger, metadataMaxBytes: number): Promise<void> {
  if (path.trim() === '') {
    throw new WeirError(JobManagerErrorCode.INVALID_SAVEPOINT_REQUEST, 'no savepoint path given; name the savepoint directory to dispose (`weir savepoint -d <path>`)');
  }
  const storage = open(path);
  try {
    let bytes: Uint8Array;
    try {
      bytes = await storage.read(METADATA_FILE, { maxBytes: metadataMaxBytes });
    } catch (err) {
      if (!isWeirError(err, StorageErrorCode.STORAGE_NOT_FOUND)) throw err;
      throw notASavepoint(path, `it holds no ${METADATA_FILE} file (a savepoint directory has one)`);
    }
    const kind = metadataKind(bytes);
    if (kind !== 'savepoint') throw notASavepoint(path, `its ${METADATA_FILE} ${kind}`);
    await storage.deleteDirectory('');
    logger.info({ path }, `disposed savepoint ${path}`);
  } finally {
    storage.close();
  }
}

/** 'savepoint', or what the metadata is instead, as the rest of a sentence. */
function metadataKind(bytes: Uint8Array): string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return 'is not JSON';
  }
  const kind = (value as { kind?: unknown } | null)?.kind;
  if (kind === 'savepoint') return kind;
  if (kind === 'checkpoint') return "describes a checkpoint, not a savepoint (a retained checkpoint goes with its job's checkpoint directory)";
  return `has kind ${JSON.stringify(kind)}, not "savepoint"`;
}

function notASavepoint(path: string, what: string): WeirError {
  return new WeirError(JobManagerErrorCode.NOT_A_SAVEPOINT, `${path} is not a savepoint: ${what}; nothing was deleted`);
}
