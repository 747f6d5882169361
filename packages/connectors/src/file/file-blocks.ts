import { open } from 'node:fs/promises';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import type { LineBlock, TextLineInputFormat } from './text-line-input-format.ts';

export const CHUNK_SIZE = 64 * 1024;

/**
 * The lines of one file from `fromOffset` on, as blocks of one chunk read each. A line
 * longer than a chunk is carried over reads until its newline (or the end of the file).
 */
export async function* readBlocks(
  file: string,
  fromOffset: number,
  format: TextLineInputFormat,
  chunkSize = CHUNK_SIZE,
): AsyncGenerator<LineBlock> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw ioError(`cannot open ${file}`, err);
  }
  try {
    let carry = Buffer.alloc(0);
    let carryOffset = fromOffset;
    let readOffset = fromOffset;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkSize);
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(chunk, 0, chunkSize, readOffset));
      } catch (err) {
        throw ioError(`cannot read ${file} at byte ${readOffset}`, err);
      }
      readOffset += bytesRead;
      const endOfFile = bytesRead === 0;
      const bytes = carry.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      const { block, consumed } = format.split(bytes, endOfFile, file, carryOffset);
      // A copy, so the carry does not pin the whole chunk it came from.
      carry = Buffer.from(bytes.subarray(consumed));
      carryOffset += consumed;
      if (block !== undefined) yield block;
      if (endOfFile) return;
    }
  } finally {
    await handle.close();
  }
}

function ioError(what: string, cause: unknown): WeirError {
  return new WeirError(ConnectorErrorCode.IO_ERROR, `${what}: ${(cause as Error).message}`, { cause });
}
