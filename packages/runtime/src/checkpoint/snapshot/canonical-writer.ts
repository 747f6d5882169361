import type { KeyGroupRange } from '@weir/common';
import { packState } from '../state-codec.ts';

/** Entries per MessagePack chunk: a key group is written as a sequence of `[stateName, [key, value, key, value...]]` chunks. */
const CHUNK_ENTRIES = 1024;

/**
 * Builds keyed state in the canonical format (HeapKeyedStateHandle): key group by key group,
 * within a group state by state in name order, `[name, [normalizedKey, encodedValue, ...]]`
 * chunks, and the offset where each group of the range starts. Both backends write through
 * it, so a heap checkpoint, a heap savepoint and a LevelDB savepoint have the same layout.
 * Entries must come in key group order, and within a group by state name.
 */
export class CanonicalKeyedWriter {
  readonly #chunks: Uint8Array[] = [];
  readonly #offsets: number[] = [];
  #size = 0;
  #name: string | undefined;
  #flat: unknown[] = [];

  constructor(private readonly range: KeyGroupRange) {}

  /** Adds one entry; true when a chunk was completed (a good moment to yield). */
  add(keyGroup: number, name: string, key: unknown, encodedValue: unknown): boolean {
    let completed = false;
    if (keyGroup - this.range.start >= this.#offsets.length) {
      completed = this.#endChunk();
      this.#startGroupsUpTo(keyGroup);
    } else if (name !== this.#name) {
      completed = this.#endChunk();
    }
    this.#name = name;
    this.#flat.push(key, encodedValue);
    if (this.#flat.length === CHUNK_ENTRIES * 2) completed = this.#endChunk();
    return completed;
  }

  finish(): { bytes: Uint8Array; offsets: number[] } {
    this.#endChunk();
    this.#startGroupsUpTo(this.range.end);
    const bytes = new Uint8Array(this.#size);
    let at = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return { bytes, offsets: this.#offsets };
  }

  #startGroupsUpTo(keyGroup: number): void {
    while (this.range.start + this.#offsets.length <= keyGroup) this.#offsets.push(this.#size);
  }

  #endChunk(): boolean {
    if (this.#flat.length === 0) return false;
    const chunk = packState([this.#name, this.#flat]);
    this.#chunks.push(chunk);
    this.#size += chunk.byteLength;
    this.#flat = [];
    return true;
  }
}
