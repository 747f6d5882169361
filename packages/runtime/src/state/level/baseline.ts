import type { LevelStateFile } from '@weir/common';

/**
 * What the checkpoint an incremental one builds on uploaded to `shared/`, by DB file name: a
 * table as its one entry, a log or the MANIFEST as its segments in order. Only a confirmed
 * checkpoint's uploads may be referred to: those of a checkpoint that may still fail are
 * deleted with it.
 */
export type LevelBaseline = ReadonlyMap<string, readonly LevelStateFile[]>;

/** The baseline's upload of table `name`, if it is the file of `size` bytes the DB has now. */
export function baselineTable(baseline: LevelBaseline | undefined, name: string, size: number): LevelStateFile | undefined {
  const entries = baseline?.get(name);
  const only = entries?.length === 1 ? entries[0]! : undefined;
  return only !== undefined && only.offset === undefined && only.size === size ? only : undefined;
}

/**
 * Segments a file may be cut into; the next checkpoint uploads it whole, as one segment. A log
 * lives until the memtable's 64 MB were written, so a slowly written one would otherwise have
 * every handle list, and every restore download, hundreds of small segments; re-uploading it
 * costs little for the same reason.
 */
export const MAX_SEGMENTS = 64;

/**
 * The baseline's segments of a log or MANIFEST that is now `size` bytes long, and how many of
 * its bytes they hold: the file grew since, so they are still its beginning. None when the
 * baseline has no segments of this file, or MAX_SEGMENTS of them.
 */
export function baselineSegments(baseline: LevelBaseline | undefined, name: string, size: number): { readonly segments: readonly LevelStateFile[]; readonly covered: number } {
  const segments = baseline?.get(name) ?? [];
  const last = segments.at(-1);
  const covered = last?.offset === undefined ? 0 : last.offset + last.size;
  // A file shorter than its segments is not the file they were cut from: never within one DB's life, where file numbers are not reused.
  if (last?.offset === undefined || covered > size || segments.length >= MAX_SEGMENTS) return { segments: [], covered: 0 };
  return { segments, covered };
}

/** The shared table files of a restored checkpoint as the baseline of the restored DB's checkpoints. */
export function restoredBaseline(files: readonly LevelStateFile[]): LevelBaseline {
  // Its log and MANIFEST segments are not: opening the DB replays the logs into a table and starts a new MANIFEST and log, under new file numbers.
  return new Map(files.filter((f) => f.location === 'shared' && f.offset === undefined).map((f) => [f.name, [f]]));
}
