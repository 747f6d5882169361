import { describeError, WeirError, type KeyedStateHandle, type KeyGroupRange, type LevelKeyedStateHandle } from '@weir/common';
import { classicLevelModule } from '../../state/level/classic-level-module.ts';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuntimeErrorCode } from '../../errors.ts';
import type { HeapKeyedStateBackend } from '../../state/heap-keyed-state-backend.ts';
import { keyGroupBounds, parseStateKey, stateKey } from '../../state/level/level-key.ts';
import { restoredBaseline } from '../../state/level/baseline.ts';
import type { LevelKeyedStateBackend } from '../../state/level/level-keyed-state-backend.ts';
import type { RawOperation } from '../../state/level/level-store.ts';
import { decodeStateValue, packState, unpackState } from '../state-codec.ts';
import type { TaskRestore } from '../types.ts';
import { forEachCanonicalChunk } from './canonical-reader.ts';
import { downloadLevelFiles, replayChangelog } from './level-files-reader.ts';
import { readStateHandle } from './read-state-handle.ts';

/** Entries per write batch when copying state into the DB. */
const COPY_BATCH = 8192;

/**
 * Restores keyed state into a LevelDB backend. One LevelDB handle of exactly this subtask's
 * key groups: its files are downloaded and opened as the DB (and, for incremental
 * checkpoints, its shared table files become the baseline). Otherwise (another parallelism, several
 * handles, canonical handles from a savepoint or the heap backend): the entries of this
 * subtask's key groups are copied into the empty DB.
 */
export async function restoreIntoLevel(restore: TaskRestore, backend: LevelKeyedStateBackend, handles: readonly KeyedStateHandle[], what: string): Promise<void> {
  for (const handle of handles) for (const [name, meta] of Object.entries(handle.states)) backend.restoredState(name, meta);
  const own = backend.keys.range;
  const only = handles.length === 1 ? handles[0]! : undefined;
  if (only !== undefined && only.backend === 'level' && sameRange(only.keyGroupRange, own)) {
    await backend.replaceDatabase((directory) => downloadLevelFiles(only, restore, directory, what));
    if (only.changelog === undefined) {
      backend.seedConfirmed(restoredBaseline(only.files));
      backend.restoredWithoutChangelog(restoredBaseline(only.files));
      return;
    }
    // Replayed, not logged again: the segments are uploaded already, and the next checkpoints refer to them.
    await replayChangelog(only, restore, what, (operations) => backend.store.writeRaw(operations, false));
    backend.restoredChangelog(only.files, only.changelog);
    return;
  }
  // Copied, not logged: a changelog would hold the whole state; a materialization of the copy starts once it is in.
  const batch = new CopyBatch((operations) => backend.store.writeRaw(operations, false));
  for (const handle of handles) {
    if (handle.backend === 'level') {
      const scratch = backend.scratchDirectory();
      try {
        await forEachLevelEntry(handle, restore, scratch, own, what, (key, value) => batch.add({ type: 'put', key, value }));
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
      continue;
    }
    const bytes = await readStateHandle(handle.handle, restore, what);
    await forEachCanonicalChunk(handle, bytes, own, restore, what, async (keyGroup, name, _meta, flat) => {
      const nameBytes = Buffer.from(name, 'utf8');
      for (let i = 0; i < flat.length; i += 2) {
        const value = packState(flat[i + 1]);
        await batch.add({ type: 'put', key: stateKey(keyGroup, nameBytes, packState(flat[i])), value: Buffer.from(value.buffer, value.byteOffset, value.byteLength) });
      }
    });
  }
  await batch.flush();
  backend.restoredWithoutChangelog(new Map());
}

/** A LevelDB checkpoint restored into heap state (a job switched from the LevelDB backend to the heap one between a checkpoint and its restore). */
export async function restoreLevelIntoHeap(restore: TaskRestore, backend: HeapKeyedStateBackend, handle: LevelKeyedStateHandle, what: string): Promise<void> {
  const own = backend.keys.range;
  const scratch = join(tmpdir(), `weir-restore-${randomBytes(6).toString('hex')}`);
  try {
    await forEachLevelEntry(handle, restore, scratch, own, what, (key, value) => {
      const parsed = parseStateKey(key);
      const meta = handle.states[parsed.name];
      if (meta === undefined) throw new WeirError(RuntimeErrorCode.CHECKPOINT_CORRUPT, `cannot restore ${what} from checkpoint ${restore.checkpointId}: its DB holds state '${parsed.name}', which the checkpoint does not describe; the checkpoint is corrupt`);
      backend
        .tableForRestore(parsed.name, meta)
        .restoreGroup(parsed.keyGroup - own.start, [unpackState(parsed.serializedKey), unpackState(value)], (v) => decodeStateValue(meta.kind, v));
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Downloads a LevelDB checkpoint into `scratch`, opens it and visits its entries of the key groups both it and `own` cover, in key order. */
async function forEachLevelEntry(
  handle: LevelKeyedStateHandle,
  restore: TaskRestore,
  scratch: string,
  own: KeyGroupRange,
  what: string,
  visit: (key: Buffer, value: Buffer) => void | Promise<void>,
): Promise<void> {
  const start = Math.max(own.start, handle.keyGroupRange.start);
  const end = Math.min(own.end, handle.keyGroupRange.end);
  if (start > end) return;
  await downloadLevelFiles(handle, restore, scratch, what);
  const db = new (classicLevelModule().ClassicLevel)<Buffer, Buffer>(scratch, { keyEncoding: 'buffer', valueEncoding: 'buffer', createIfMissing: false });
  try {
    await db.open();
  } catch (err) {
    throw new WeirError(RuntimeErrorCode.CHECKPOINT_CORRUPT, `cannot restore ${what} from checkpoint ${restore.checkpointId}: its LevelDB files do not open (${describeError(err)}); the checkpoint is corrupt, restore from an earlier one`, { cause: err });
  }
  try {
    // A changelog checkpoint's segments hold the writes since its base, each key with its key group: replayed whole, then read by range as the rest.
    await replayChangelog(handle, restore, what, (operations) => db.batch(operations));
    const iterator = db.iterator(keyGroupBounds({ start, end }));
    try {
      for (let entries = await iterator.nextv(COPY_BATCH); entries.length !== 0; entries = await iterator.nextv(COPY_BATCH)) {
        for (const [key, value] of entries) await visit(key, value);
      }
    } finally {
      await iterator.close();
    }
  } finally {
    await db.close();
  }
}

function sameRange(a: KeyGroupRange, b: KeyGroupRange): boolean {
  return a.start === b.start && a.end === b.end;
}

class CopyBatch {
  #operations: RawOperation[] = [];

  constructor(private readonly write: (operations: RawOperation[]) => Promise<void>) {}

  async add(operation: RawOperation): Promise<void> {
    this.#operations.push(operation);
    if (this.#operations.length >= COPY_BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    const operations = this.#operations;
    this.#operations = [];
    await this.write(operations);
  }
}
