import type { LevelStateFile } from '@weir/common';
import type { LevelBaseline } from '../baseline.ts';
import { ChangelogEncoder } from './changelog-format.ts';

/** A closed changelog segment. */
export interface ChangelogSegment {
  readonly sequence: number;
  /** Its bytes, kept until a confirmed checkpoint uploaded it: a failed checkpoint's uploads are deleted with it. */
  bytes: Buffer | undefined;
  /** The upload a confirmed checkpoint made of it (or the restored checkpoint's). */
  upload: LevelStateFile | undefined;
}

/** A materialized DB: its files in `shared/`, holding every change of the segments up to `upTo`. */
export interface MaterializedBase {
  readonly files: readonly LevelStateFile[];
  readonly upTo: number;
  /** Its shared files by DB name: what the next materialization refers to instead of uploading. */
  readonly baseline: LevelBaseline;
  /** Bytes its materialization uploaded, counted by the first checkpoint that uses it. */
  readonly uploadedBytes: number;
}

/** What a checkpoint's asynchronous part uploads and refers to (LevelChangelogSnapshot). */
export interface ChangelogCheckpoint {
  readonly base: readonly LevelStateFile[];
  readonly segments: readonly ChangelogSegment[];
  readonly materializedBytes: number;
  readonly baseCheckpointId: number;
  readonly uploaded: (uploads: ReadonlyMap<number, LevelStateFile>) => void;
}

const EMPTY_BASE: MaterializedBase = { files: [], upTo: 0, baseline: new Map(), uploadedBytes: 0 };

/**
 * One subtask's changelog (Flink's FsStateChangelogWriter with ChangelogKeyedStateBackend's
 * bookkeeping): the DB's writes go to the open segment; a checkpoint closes it and consists of
 * the materialized base and the segments written since. As with incremental checkpoints, a
 * checkpoint refers only to what a confirmed checkpoint uploaded, since the JobManager deletes
 * a failed checkpoint's uploads: a segment's bytes stay until then, and a new base is offered to
 * one checkpoint at a time, becoming the base once that one is confirmed (until then the older
 * base and its segments stay usable). Segments the confirmed base holds are released.
 */
export class StateChangelog {
  readonly writer = new ChangelogEncoder();
  #nextSequence = 1;
  #segments: ChangelogSegment[] = [];
  #base: MaterializedBase = EMPTY_BASE;
  /** The checkpoint `#base` (or the restored segments) last came from; 0 for the restored checkpoint. */
  #confirmedId = 0;
  /** A materialization not yet confirmed, and the checkpoint it was offered to, if any. */
  #candidate: { readonly base: MaterializedBase; offeredTo: number | undefined } | undefined;
  /** False from a restore that did not replay a changelog until a materialization is confirmed: the DB holds state no segment or base has. */
  #hasBase = true;
  readonly #pending = new Map<number, { readonly base: MaterializedBase; uploads: ReadonlyMap<number, LevelStateFile> }>();

  /** Closes the open segment; the sequence of the last closed one (0 before any), which a materialization started now holds. */
  closeSegment(): number {
    const bytes = this.writer.take();
    if (bytes !== undefined) this.#segments.push({ sequence: this.#nextSequence++, bytes, upload: undefined });
    return this.#nextSequence - 1;
  }

  /**
   * The synchronous part of checkpoint `checkpointId`: closes the open segment, and names the
   * base and segments the checkpoint consists of; undefined while there is no base to name
   * (restored from files a changelog checkpoint cannot refer to, until a materialization of
   * the restored DB is confirmed): the checkpoint then uploads the DB's files.
   */
  checkpoint(checkpointId: number): ChangelogCheckpoint | undefined {
    this.closeSegment();
    const candidate = this.#candidate;
    let base = this.#base;
    if (candidate !== undefined && candidate.offeredTo === undefined) {
      candidate.offeredTo = checkpointId;
      base = candidate.base;
    } else if (!this.#hasBase) {
      return undefined;
    }
    const pending = { base, uploads: new Map<number, LevelStateFile>() as ReadonlyMap<number, LevelStateFile> };
    this.#pending.set(checkpointId, pending);
    return {
      base: base.files,
      segments: this.#segments.filter((s) => s.sequence > base.upTo),
      materializedBytes: base === this.#base ? 0 : base.uploadedBytes,
      baseCheckpointId: this.#confirmedId,
      uploaded: (uploads) => {
        pending.uploads = uploads;
      },
    };
  }

  confirm(checkpointId: number): void {
    const pending = this.#pending.get(checkpointId);
    if (pending !== undefined) {
      for (const segment of this.#segments) {
        const upload = pending.uploads.get(segment.sequence);
        if (upload === undefined || segment.upload !== undefined) continue;
        segment.upload = upload;
        segment.bytes = undefined;
      }
      if (pending.base === this.#candidate?.base) {
        this.#base = pending.base;
        this.#hasBase = true;
        this.#candidate = undefined;
        this.#segments = this.#segments.filter((s) => s.sequence > this.#base.upTo);
      }
      this.#confirmedId = checkpointId;
    }
    for (const id of [...this.#pending.keys()]) if (id <= checkpointId) this.#pending.delete(id);
    // Offered to a checkpoint this one subsumes without its confirmation: it may have failed, and its uploads with it.
    if (this.#candidate?.offeredTo !== undefined && this.#candidate.offeredTo <= checkpointId) this.#candidate = undefined;
  }

  abort(checkpointId: number): void {
    this.#pending.delete(checkpointId);
    if (this.#candidate?.offeredTo === checkpointId) this.#candidate = undefined;
  }

  /** No materialization waits to be confirmed: another may start. */
  get canMaterialize(): boolean {
    return this.#candidate === undefined;
  }

  /** What a materialization refers to instead of uploading: the confirmed base's files, which no failed checkpoint can take along. */
  get baseline(): LevelBaseline {
    return this.#base.baseline;
  }

  /** A materialization finished uploading: the next checkpoint uses it. */
  materialized(base: MaterializedBase): void {
    this.#candidate = { base, offeredTo: undefined };
  }

  /** Restored from a changelog checkpoint: its base and segments are uploaded and confirmed. */
  restored(files: readonly LevelStateFile[], baseline: LevelBaseline, segments: readonly LevelStateFile[]): void {
    this.#segments = segments.map((upload) => ({ sequence: segmentSequence(upload.name), bytes: undefined, upload }));
    const first = this.#segments[0]?.sequence ?? 1;
    this.#base = { files, upTo: first - 1, baseline, uploadedBytes: 0 };
    this.#nextSequence = (this.#segments.at(-1)?.sequence ?? 0) + 1;
    this.#confirmedId = 0;
    this.#candidate = undefined;
    this.#hasBase = true;
  }

  /** The DB was filled around the changelog (restored from files, or copied): checkpoints upload files until a materialization is confirmed. */
  lostBase(baseline: LevelBaseline): void {
    this.#hasBase = false;
    this.#base = { ...EMPTY_BASE, baseline };
    this.#segments = [];
    this.writer.take();
    this.#candidate = undefined;
  }

  /** Bytes of segments not yet confirmed as uploaded, for tests and diagnostics. */
  get heldBytes(): number {
    return this.#segments.reduce((sum, s) => sum + (s.bytes?.byteLength ?? 0), 0);
  }
}

/** `changelog-<n>` → n. */
export function segmentName(sequence: number): string {
  return `changelog-${sequence}`;
}

export function segmentSequence(name: string): number {
  return Number(name.slice('changelog-'.length));
}
