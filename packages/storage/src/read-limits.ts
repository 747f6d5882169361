import { WeirError } from '@weir/common';
import { StorageErrorCode } from './errors.ts';

/**
 * STORAGE_TOO_LARGE for a file of `size` bytes where at most `maxBytes` are taken. It names
 * sizes only: what the file holds is not the caller's to see.
 */
export function tooLarge(location: string, size: number, maxBytes: number): StorageTooLargeError {
  return new StorageTooLargeError(location, size, maxBytes);
}

/** STORAGE_TOO_LARGE, with the file's size for a caller that reports it (a size check of a state file). */
export class StorageTooLargeError extends WeirError {
  constructor(
    location: string,
    readonly size: number,
    maxBytes: number,
  ) {
    super(StorageErrorCode.STORAGE_TOO_LARGE, `${location} is ${size} bytes, more than the ${maxBytes} bytes read from it here`);
  }
}

/** Throws STORAGE_TOO_LARGE when `size` passes `maxBytes`. */
export function checkSize(location: string, size: number, maxBytes: number | undefined): void {
  if (maxBytes !== undefined && size > maxBytes) throw tooLarge(location, size, maxBytes);
}
