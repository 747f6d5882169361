import { copyFile, link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readManifest } from './manifest.ts';

/** Attempts at a consistent copy; a compaction that deletes a listed table between reading the MANIFEST and linking it costs one more. */
const ATTEMPTS = 5;

export interface SnapshotFile {
  readonly name: string;
  readonly size: number;
}

/**
 * A copy of a live DB that opens as the DB was at this call, in `target`: CURRENT, the
 * MANIFEST and the logs it still needs are copied (they are appended to), the table files the
 * MANIFEST lists are hard-linked (LevelDB never changes a table file once written). The
 * caller has flushed the memtable, so the logs are (nearly) empty.
 */
export async function snapshotDatabaseFiles(source: string, target: string): Promise<SnapshotFile[]> {
  let lastMissing = '';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    await rm(target, { recursive: true, force: true });
    await mkdir(target, { recursive: true });
    const current = await readFile(join(source, 'CURRENT'), 'utf8');
    const manifestName = current.trim();
    const manifest = await readFile(join(source, manifestName));
    const state = readManifest(manifest);
    await writeFile(join(target, 'CURRENT'), current);
    await writeFile(join(target, manifestName), manifest);
    for (const name of await readdir(source)) {
      const log = /^(\d+)\.log$/.exec(name);
      if (log === null) continue;
      const number = Number(log[1]);
      if (number >= state.logNumber || number === state.prevLogNumber) await copyFile(join(source, name), join(target, name));
    }
    const missing = await linkTables(source, target, state.tables);
    if (missing === undefined) return listFiles(target);
    lastMissing = missing;
  }
  throw new Error(`table file ${lastMissing} of ${source} vanished before it could be linked, ${ATTEMPTS} times in a row (compactions kept replacing it)`);
}

/** Links every table; the name of the first one that no longer exists, or undefined. */
async function linkTables(source: string, target: string, tables: ReadonlySet<number>): Promise<string | undefined> {
  for (const number of tables) {
    const base = String(number).padStart(6, '0');
    let linked = false;
    for (const name of [`${base}.ldb`, `${base}.sst`]) {
      try {
        await link(join(source, name), join(target, name));
        linked = true;
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    if (!linked) return `${base}.ldb`;
  }
  return undefined;
}

async function listFiles(directory: string): Promise<SnapshotFile[]> {
  const files: SnapshotFile[] = [];
  for (const name of (await readdir(directory)).sort()) files.push({ name, size: (await stat(join(directory, name))).size });
  return files;
}

/** Table files are immutable and may be shared between checkpoints; the rest of a DB's files change. */
export function isTableFile(name: string): boolean {
  return name.endsWith('.ldb') || name.endsWith('.sst');
}
