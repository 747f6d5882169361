import type { LevelStateFile } from '@weir/common';
import { link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { baselineTable, type LevelBaseline } from './baseline.ts';
import { readManifest } from './manifest.ts';

/** Attempts at a consistent set; a compaction that deletes a listed table or log between reading the MANIFEST and linking it costs one more. */
const ATTEMPTS = 5;

export interface SnapshotFile {
  readonly name: string;
  /** The bytes of the file that belong to the snapshot: a log or MANIFEST linked here may grow past them afterwards. */
  readonly size: number;
  /** A table the baseline uploaded already: referred to, not linked. */
  readonly shared?: LevelStateFile;
}

/**
 * The files of a live DB that open as the DB was at this call, in `target`: CURRENT is copied,
 * the MANIFEST, the logs it still needs and its table files are hard-linked. LevelDB never
 * changes a byte it wrote (tables are immutable; logs and the MANIFEST are only appended to,
 * and their numbers are never reused), so the first `size` bytes of a linked file stay the
 * snapshot's however the DB goes on. Tables the baseline has are listed, not linked.
 *
 * No write may be in flight: a log grows by writes only, so its size now is where the
 * snapshot ends. Compactions may run meanwhile: they append to the MANIFEST (the bytes read
 * here are the snapshot's; a torn record at their end is ignored, as LevelDB does on open),
 * write tables, and delete tables and logs the new version no longer needs; a deletion
 * between reading the MANIFEST and linking a file it names costs one more attempt.
 */
export async function snapshotDatabaseFiles(source: string, target: string, baseline: LevelBaseline | undefined): Promise<SnapshotFile[]> {
  let lastMissing = '';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    await rm(target, { recursive: true, force: true });
    await mkdir(target, { recursive: true });
    // Listed before the MANIFEST is read: a log deleted before the listing was in a table by then, which the MANIFEST read after it lists.
    const names = await readdir(source);
    const current = await readFile(join(source, 'CURRENT'), 'utf8');
    const manifestName = current.trim();
    await writeFile(join(target, 'CURRENT'), current);
    if (!(await linked(source, target, manifestName))) {
      lastMissing = manifestName;
      continue;
    }
    const manifest = await readFile(join(target, manifestName));
    const state = readManifest(manifest);
    const files: SnapshotFile[] = [
      { name: 'CURRENT', size: Buffer.byteLength(current) },
      { name: manifestName, size: manifest.byteLength },
    ];
    const missing = (await linkLogs(source, target, names, state, files)) ?? (await linkTables(source, target, state.tables, baseline, files));
    if (missing === undefined) return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    lastMissing = missing;
  }
  throw new Error(`file ${lastMissing} of ${source} vanished before it could be linked, ${ATTEMPTS} times in a row (compactions kept replacing it)`);
}

/** Links the logs the MANIFEST still needs; the name of the first that no longer exists, or undefined. */
async function linkLogs(source: string, target: string, names: readonly string[], state: { readonly logNumber: number; readonly prevLogNumber: number }, files: SnapshotFile[]): Promise<string | undefined> {
  for (const name of names) {
    const log = /^(\d+)\.log$/.exec(name);
    if (log === null) continue;
    const number = Number(log[1]);
    if (number < state.logNumber && number !== state.prevLogNumber) continue;
    if (!(await linked(source, target, name))) return name;
    files.push({ name, size: (await stat(join(target, name))).size });
  }
  return undefined;
}

/** Links every table the baseline does not have; the name of the first one that no longer exists, or undefined. */
async function linkTables(source: string, target: string, tables: ReadonlyMap<number, number>, baseline: LevelBaseline | undefined, files: SnapshotFile[]): Promise<string | undefined> {
  for (const [number, size] of tables) {
    const base = String(number).padStart(6, '0');
    // `.sst`: a table written by an older LevelDB.
    const names = [`${base}.ldb`, `${base}.sst`];
    const known = names.map((name) => baselineTable(baseline, name, size)).find((f) => f !== undefined);
    if (known !== undefined) {
      files.push({ name: known.name, size, shared: known });
      continue;
    }
    let name: string | undefined;
    for (const candidate of names) {
      if (!(await linked(source, target, candidate))) continue;
      name = candidate;
      break;
    }
    if (name === undefined) return `${base}.ldb`;
    files.push({ name, size });
  }
  return undefined;
}

/** Hard-links `name`; false if it does not exist. */
async function linked(source: string, target: string, name: string): Promise<boolean> {
  try {
    await link(join(source, name), join(target, name));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Table files are immutable and may be shared between checkpoints whole. */
export function isTableFile(name: string): boolean {
  return name.endsWith('.ldb') || name.endsWith('.sst');
}

/** Logs and the MANIFEST are only appended to: an incremental checkpoint uploads what was appended since its baseline. */
export function isAppendedFile(name: string): boolean {
  return /^\d+\.log$/.test(name) || /^MANIFEST-\d+$/.test(name);
}
