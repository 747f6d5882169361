import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WeirError } from '@weir/common';
import { StorageErrorCode } from './errors.ts';
import { joinPath, normalizeFilePath, normalizePath } from './paths.ts';
import { checkSize } from './read-limits.ts';
import { describeCause } from './retry.ts';
import type { ReadOptions, Storage, StoredFile } from './types.ts';

/** Errors that mean "there is nothing at this path" rather than "the disk said no". */
const ABSENT = new Set(['ENOENT', 'ENOTDIR']);

/**
 * A Storage on the local file system, rooted at an absolute directory. Failures are not
 * retried: a disk that is full or a directory that is not writable stays so, and the
 * STORAGE_FAILURE names the path and the cause at once.
 */
export class LocalStorage implements Storage {
  readonly url: string;
  readonly root: string;

  constructor(root: string) {
    this.root = root;
    this.url = pathToFileURL(root).href;
  }

  async write(path: string, data: Uint8Array): Promise<void> {
    const target = this.#resolveFile(path);
    try {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, data);
    } catch (error) {
      throw this.#failure('write', target, error);
    }
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    const target = this.#resolveFile(path);
    const directory = dirname(target);
    const temp = join(directory, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
    let handle: FileHandle | undefined;
    try {
      await mkdir(directory, { recursive: true });
      handle = await open(temp, 'wx');
      await handle.writeFile(data);
      // Without the fsync a crash after the rename could leave the name pointing at empty blocks.
      await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(temp, target);
      await syncDirectory(directory);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await rm(temp, { force: true }).catch(() => undefined);
      throw this.#failure('write', target, error);
    }
  }

  /**
   * Reads a regular file below the root, and only that: the path's symbolic links are resolved
   * first and must end below the root's own real path (a `_metadata` linked to /dev/zero or
   * /etc/shadow is refused), and the file is opened without following a link and without
   * blocking (a FIFO would wait for a writer), then checked to be a regular file no larger
   * than `maxBytes` before a byte is read.
   */
  async read(path: string, options: ReadOptions = {}): Promise<Uint8Array> {
    const target = this.#resolveFile(path);
    let handle: FileHandle | undefined;
    try {
      const real = await realpath(target);
      const root = await realpath(this.root);
      if (!real.startsWith(root.endsWith(sep) ? root : root + sep)) {
        throw new WeirError(StorageErrorCode.STORAGE_NOT_REGULAR_FILE, `${target} is a symbolic link to a file outside ${this.root}; files of a checkpoint or savepoint are read only from below its directory`);
      }
      handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      const info = await handle.stat();
      if (!info.isFile()) {
        if (info.isDirectory()) throw new WeirError(StorageErrorCode.STORAGE_NOT_FOUND, `no file at ${target}: it does not exist`);
        throw new WeirError(StorageErrorCode.STORAGE_NOT_REGULAR_FILE, `${target} is not a regular file (a device, FIFO or socket); files of a checkpoint or savepoint are regular files`);
      }
      checkSize(target, info.size, options.maxBytes);
      return await readUpTo(handle, info.size);
    } catch (error) {
      if (error instanceof WeirError) throw error;
      if (ABSENT.has(codeOf(error)) || codeOf(error) === 'EISDIR') {
        throw new WeirError(StorageErrorCode.STORAGE_NOT_FOUND, `no file at ${target}: it does not exist`, { cause: error });
      }
      throw this.#failure('read', target, error);
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }

  async exists(path: string): Promise<boolean> {
    const target = this.#resolveFile(path);
    try {
      return (await stat(target)).isFile();
    } catch (error) {
      if (ABSENT.has(codeOf(error))) return false;
      throw this.#failure('stat', target, error);
    }
  }

  async list(prefix: string): Promise<string[]> {
    return (await this.#collect(prefix, false)).map((file) => file.path);
  }

  async listSizes(prefix: string): Promise<StoredFile[]> {
    return this.#collect(prefix, true);
  }

  async #collect(prefix: string, sizes: boolean): Promise<StoredFile[]> {
    const base = normalizePath(prefix);
    const files: StoredFile[] = [];
    try {
      await collectFiles(this.#resolve(base), base, sizes, files);
    } catch (error) {
      if (ABSENT.has(codeOf(error))) return [];
      throw this.#failure('list', this.#resolve(base), error);
    }
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async delete(path: string): Promise<void> {
    const target = this.#resolveFile(path);
    try {
      await rm(target, { force: true });
    } catch (error) {
      if (ABSENT.has(codeOf(error))) return;
      throw this.#failure('delete', target, error);
    }
  }

  async deleteDirectory(prefix: string): Promise<void> {
    const target = this.#resolve(normalizePath(prefix));
    try {
      await rm(target, { recursive: true, force: true });
    } catch (error) {
      if (ABSENT.has(codeOf(error))) return;
      throw this.#failure('delete', target, error);
    }
  }

  child(path: string): Storage {
    return new LocalStorage(this.#resolve(normalizePath(path)));
  }

  close(): void {}

  #resolve(normalized: string): string {
    return normalized === '' ? this.root : join(this.root, normalized);
  }

  #resolveFile(path: string): string {
    return this.#resolve(normalizeFilePath(path));
  }

  #failure(operation: 'write' | 'delete' | 'read' | 'stat' | 'list', target: string, error: unknown): WeirError {
    const needs = operation === 'write' || operation === 'delete' ? 'be writable and have free space' : 'be readable';
    return new WeirError(
      StorageErrorCode.STORAGE_FAILURE,
      `cannot ${operation} ${target}: ${describeCause(error)}; the storage directory ${this.root} must ${needs}`,
      { cause: error },
    );
  }
}

/** Appends the storage paths of all files below `directory` (whose storage path is `base`). */
/** The regular files below `directory`, with their sizes when `sizes` (a file deleted meanwhile counts 0 bytes). */
async function collectFiles(directory: string, base: string, sizes: boolean, files: StoredFile[]): Promise<void> {
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = joinPath(base, entry.name);
    if (entry.isDirectory()) await collectFiles(join(directory, entry.name), path, sizes, files);
    else if (entry.isFile()) files.push({ path, bytes: sizes ? await sizeOf(join(directory, entry.name)) : 0 });
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await lstat(file)).size;
  } catch (error) {
    if (ABSENT.has(codeOf(error))) return 0;
    throw error;
  }
}

/** The file's first `size` bytes (fewer if it ended sooner): what it held when it was checked, never more. */
async function readUpTo(handle: FileHandle, size: number): Promise<Uint8Array> {
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const { bytesRead } = await handle.read(bytes, at, size - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return at === size ? bytes : bytes.subarray(0, at);
}

/** Makes a rename in `directory` durable. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}
