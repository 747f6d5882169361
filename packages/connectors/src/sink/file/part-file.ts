import { closeSync, fdatasyncSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../../errors.ts';

const BUFFER_SIZE = 64 * 1024;
/** A UTF-16 code unit takes at most 3 UTF-8 bytes. */
const MAX_UTF8_BYTES_PER_UNIT = 3;

export function partFileName(subtask: number, index: number): string {
  return `part-${subtask}-${index}`;
}

/** Hidden (leading '.') so readers of the directory, FileSource included, skip it until it is committed. */
export function inProgressFileName(subtask: number, index: number): string {
  return `.part-${subtask}-${index}.inprogress`;
}

/**
 * The index after the highest part (visible or in progress) this subtask already has in
 * `dir`, so a writer never overwrites an earlier attempt's files.
 */
export function nextPartIndex(dir: string, subtask: number): number {
  const pattern = new RegExp(`^\\.?part-${subtask}-(\\d+)(\\.inprogress)?$`);
  let next = 0;
  for (const name of listDir(dir)) {
    const match = pattern.exec(name);
    if (match !== null) next = Math.max(next, Number(match[1]) + 1);
  }
  return next;
}

/** Deletes this subtask's hidden part files (in progress or rolled, never committed) and returns their names. */
export function deleteHiddenParts(dir: string, subtask: number): string[] {
  const pattern = new RegExp(`^\\.part-${subtask}-\\d+\\.inprogress$`);
  const hidden = listDir(dir).filter((name) => pattern.test(name));
  for (const name of hidden) {
    try {
      rmSync(join(dir, name), { force: true });
    } catch (err) {
      throw ioError(`cannot delete uncommitted part file ${join(dir, name)}`, err);
    }
  }
  return hidden;
}

/** A part that was rolled: complete and durable on disk, still hidden until committed. */
export interface PendingPart {
  /** File names in the sink's directory. */
  readonly pendingName: string;
  readonly finalName: string;
  readonly size: number;
}

/**
 * The part file being written: records go into a 64 KiB buffer and reach the file with
 * synchronous writes on its fd, so a `write` is usually a memory copy.
 */
export class InProgressPart {
  readonly #buffer = Buffer.allocUnsafe(BUFFER_SIZE);
  #buffered = 0;
  #written = 0;

  private constructor(
    readonly inProgressPath: string,
    private readonly subtask: number,
    private readonly index: number,
    private readonly fd: number,
  ) {}

  static open(dir: string, subtask: number, index: number): InProgressPart {
    const inProgressPath = join(dir, inProgressFileName(subtask, index));
    let fd: number;
    try {
      fd = openSync(inProgressPath, 'wx');
    } catch (err) {
      throw ioError(`cannot create part file ${inProgressPath}`, err);
    }
    return new InProgressPart(inProgressPath, subtask, index, fd);
  }

  /** Bytes in the part, buffered ones included. */
  get size(): number {
    return this.#written + this.#buffered;
  }

  write(text: string): void {
    const maxBytes = text.length * MAX_UTF8_BYTES_PER_UNIT;
    if (maxBytes > BUFFER_SIZE - this.#buffered) {
      this.flush();
      if (maxBytes > BUFFER_SIZE) {
        this.#writeFully(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.#buffered += this.#buffer.write(text, this.#buffered, 'utf8');
  }

  /** Hands the buffered bytes to the file. */
  flush(): void {
    if (this.#buffered === 0) return;
    const bytes = this.#buffered;
    this.#buffered = 0;
    this.#writeFully(this.#buffer.subarray(0, bytes));
  }

  /** Ends the part: flushed, synced to disk and closed, ready to commit. */
  roll(): PendingPart {
    this.flush();
    try {
      fdatasyncSync(this.fd);
      closeSync(this.fd);
    } catch (err) {
      throw ioError(`cannot finish part file ${this.inProgressPath}`, err);
    }
    return { pendingName: inProgressFileName(this.subtask, this.index), finalName: partFileName(this.subtask, this.index), size: this.#written };
  }

  /** Closes the file without committing it: it stays hidden as in-progress. */
  abandon(): void {
    this.flush();
    try {
      closeSync(this.fd);
    } catch (err) {
      throw ioError(`cannot close part file ${this.inProgressPath}`, err);
    }
  }

  #writeFully(bytes: Uint8Array): void {
    try {
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
    } catch (err) {
      throw ioError(`cannot write part file ${this.inProgressPath}`, err);
    }
    this.#written += bytes.length;
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    throw ioError(`cannot list FileSink directory ${dir}`, err);
  }
}

export function ioError(what: string, cause: unknown): WeirError {
  return new WeirError(ConnectorErrorCode.IO_ERROR, `${what}: ${(cause as Error).message}`, { cause });
}
