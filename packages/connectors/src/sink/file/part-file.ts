import { mkdir, open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../../errors.ts';

const BUFFER_SIZE = 64 * 1024;
/** A UTF-16 code unit takes at most 3 UTF-8 bytes. */
const MAX_UTF8_BYTES_PER_UNIT = 3;

/*
 * Every file operation here is asynchronous (fs/promises): a TaskManager runs many tasks on
 * one event loop, and a synchronous fdatasync or rename of one sink would stall all of them.
 */

export function partFileName(subtask: number, index: number): string {
  return `part-${subtask}-${index}`;
}

/** Hidden (leading '.') so readers of the directory, FileSource included, skip it until it is committed. */
export function inProgressFileName(subtask: number, index: number): string {
  return `.part-${subtask}-${index}.inprogress`;
}

export async function createSinkDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw ioError(`cannot create FileSink directory ${dir}`, err);
  }
}

/**
 * The index after the highest part (visible or in progress) this subtask already has in
 * `dir` (and, with `buckets`, in every directory below it), so a writer never overwrites an
 * earlier attempt's files.
 */
export async function nextPartIndex(dir: string, subtask: number, buckets = false): Promise<number> {
  const pattern = new RegExp(`^\\.?part-${subtask}-(\\d+)(\\.inprogress)?$`);
  let next = 0;
  for (const name of await listDir(dir, buckets)) {
    const match = pattern.exec(basename(name));
    if (match !== null) next = Math.max(next, Number(match[1]) + 1);
  }
  return next;
}

/**
 * Deletes this subtask's hidden part files (in progress or rolled, never committed) in `dir`
 * (with `buckets`, also below it) and returns their paths relative to `dir`.
 */
export async function deleteHiddenParts(dir: string, subtask: number, buckets = false): Promise<string[]> {
  const pattern = new RegExp(`^\\.part-${subtask}-\\d+\\.inprogress$`);
  const hidden = (await listDir(dir, buckets)).filter((name) => pattern.test(basename(name)));
  for (const name of hidden) {
    try {
      await rm(join(dir, name), { force: true });
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
 * The part file being written: records go into a 64 KiB buffer, so a `write` is usually a
 * memory copy and returns nothing; a full buffer goes to the file and `write` returns the
 * promise of that, which the task waits for before its next record.
 */
export class InProgressPart {
  #buffer = Buffer.allocUnsafe(BUFFER_SIZE);
  #buffered = 0;
  #written = 0;

  private constructor(
    readonly inProgressPath: string,
    private readonly subtask: number,
    private readonly index: number,
    private readonly file: FileHandle,
  ) {}

  static async open(dir: string, subtask: number, index: number): Promise<InProgressPart> {
    const inProgressPath = join(dir, inProgressFileName(subtask, index));
    try {
      return new InProgressPart(inProgressPath, subtask, index, await open(inProgressPath, 'wx'));
    } catch (err) {
      throw ioError(`cannot create part file ${inProgressPath}`, err);
    }
  }

  /** Bytes in the part, buffered ones included. */
  get size(): number {
    return this.#written + this.#buffered;
  }

  write(text: string): Promise<void> | undefined {
    const maxBytes = text.length * MAX_UTF8_BYTES_PER_UNIT;
    if (maxBytes <= BUFFER_SIZE - this.#buffered) {
      this.#buffered += this.#buffer.write(text, this.#buffered, 'utf8');
      return undefined;
    }
    return this.#flushThenWrite(text, maxBytes);
  }

  /** Hands the buffered bytes to the file. */
  async flush(): Promise<void> {
    if (this.#buffered === 0) return;
    // The buffer goes to the file as it is; the next records fill a fresh one.
    const bytes = this.#buffer.subarray(0, this.#buffered);
    this.#buffer = Buffer.allocUnsafe(BUFFER_SIZE);
    this.#buffered = 0;
    await this.#writeFully(bytes);
  }

  /** Ends the part: flushed, synced to disk and closed, ready to commit. */
  async roll(): Promise<PendingPart> {
    await this.flush();
    try {
      await this.file.datasync();
      await this.file.close();
    } catch (err) {
      throw ioError(`cannot finish part file ${this.inProgressPath}`, err);
    }
    return { pendingName: inProgressFileName(this.subtask, this.index), finalName: partFileName(this.subtask, this.index), size: this.#written };
  }

  /** Closes the file without committing it: it stays hidden as in-progress. */
  async abandon(): Promise<void> {
    await this.flush();
    try {
      await this.file.close();
    } catch (err) {
      throw ioError(`cannot close part file ${this.inProgressPath}`, err);
    }
  }

  async #flushThenWrite(text: string, maxBytes: number): Promise<void> {
    await this.flush();
    if (maxBytes > BUFFER_SIZE) await this.#writeFully(Buffer.from(text, 'utf8'));
    else this.#buffered += this.#buffer.write(text, 0, 'utf8');
  }

  async #writeFully(bytes: Uint8Array): Promise<void> {
    try {
      for (let offset = 0; offset < bytes.length; ) offset += (await this.file.write(bytes, offset, bytes.length - offset)).bytesWritten;
    } catch (err) {
      throw ioError(`cannot write part file ${this.inProgressPath}`, err);
    }
    this.#written += bytes.length;
  }
}

async function listDir(dir: string, recursive: boolean): Promise<string[]> {
  try {
    return await readdir(dir, { recursive });
  } catch (err) {
    throw ioError(`cannot list FileSink directory ${dir}`, err);
  }
}

export function ioError(what: string, cause: unknown): WeirError {
  return new WeirError(ConnectorErrorCode.IO_ERROR, `${what}: ${(cause as Error).message}`, { cause });
}
