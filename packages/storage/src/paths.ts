import { WeirError } from '@weir/common';
import { StorageErrorCode } from './errors.ts';

/**
 * The normalized form of a path relative to a storage root: '/'-separated, without empty or
 * `.` segments; '' is the root itself. Storage paths never climb out of their root, so a
 * handle path read from `_metadata` cannot reach files of another job.
 */
export function normalizePath(path: string): string {
  if (path.startsWith('/') || path.includes('\\')) {
    throw new WeirError(
      StorageErrorCode.INVALID_STORAGE_PATH,
      `storage path ${JSON.stringify(path)} is not relative; storage paths are '/'-separated and relative to the storage root, like "chk-3/op-1"`,
    );
  }
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    throw new WeirError(
      StorageErrorCode.INVALID_STORAGE_PATH,
      `storage path ${JSON.stringify(path)} contains '..'; storage paths stay below the storage root`,
    );
  }
  return segments.join('/');
}

/** The normalized path of a file: like normalizePath, but the root itself is no file. */
export function normalizeFilePath(path: string): string {
  const normalized = normalizePath(path);
  if (normalized === '') {
    throw new WeirError(
      StorageErrorCode.INVALID_STORAGE_PATH,
      `storage path ${JSON.stringify(path)} names the storage root, not a file; give a file path like "chk-3/_metadata"`,
    );
  }
  return normalized;
}

/** `base` and `path` joined with '/', either of them possibly empty. */
export function joinPath(base: string, path: string): string {
  if (base === '') return path;
  if (path === '') return base;
  return `${base}/${path}`;
}
