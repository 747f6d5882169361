import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';

/** Hidden as in Flink's default file filter; it also skips FileSink's in-progress files. */
function isHidden(name: string): boolean {
  return name.startsWith('.') || name.startsWith('_');
}

/** The file itself, or the visible files directly in the directory, sorted by name. */
export async function listFiles(path: string): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new WeirError(ConnectorErrorCode.FILE_NOT_FOUND, `file source path ${path} does not exist; give an existing file or directory`);
    }
    throw new WeirError(ConnectorErrorCode.IO_ERROR, `cannot read file source path ${path}: ${(err as Error).message}`, { cause: err });
  }
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path)).filter((name) => !isHidden(name)).sort();
  const files: string[] = [];
  for (const name of names) {
    const file = join(path, name);
    if ((await stat(file)).isFile()) files.push(file);
  }
  return files;
}
