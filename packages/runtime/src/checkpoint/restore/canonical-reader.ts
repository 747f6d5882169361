import { describeError, type HeapKeyedStateHandle, type KeyGroupRange, type StateMetaInfo } from '@weir/common';
import { unpackStateSequence } from '../state-codec.ts';
import type { TaskRestore } from '../types.ts';
import { corruptHandle } from './read-state-handle.ts';

/** One `[stateName, [key, value, key, value...]]` chunk of a key group, with the state's description. */
export type CanonicalChunkVisitor = (keyGroup: number, name: string, meta: StateMetaInfo, flat: readonly unknown[]) => void | Promise<void>;

/** Visits the chunks of the key groups of `own` that a canonical (heap format) handle holds; values stay in their encoded form. */
export async function forEachCanonicalChunk(
  handle: HeapKeyedStateHandle,
  bytes: Uint8Array,
  own: KeyGroupRange,
  restore: TaskRestore,
  what: string,
  visit: CanonicalChunkVisitor,
): Promise<void> {
  const first = Math.max(own.start, handle.keyGroupRange.start);
  const last = Math.min(own.end, handle.keyGroupRange.end);
  for (let keyGroup = first; keyGroup <= last; keyGroup++) {
    const i = keyGroup - handle.keyGroupRange.start;
    const start = handle.offsets[i];
    const end = handle.offsets[i + 1] ?? bytes.byteLength;
    if (start === undefined || start > end || end > bytes.byteLength) {
      throw corruptHandle(handle.handle, restore, what, `has no valid offsets for key group ${keyGroup}`);
    }
    let chunks: unknown[];
    try {
      chunks = unpackStateSequence(bytes.subarray(start, end));
    } catch (err) {
      throw corruptHandle(handle.handle, restore, what, `does not decode at key group ${keyGroup} (${describeError(err)})`);
    }
    for (const chunk of chunks) {
      const [name, flat] = chunk as [string, unknown[]];
      const meta: StateMetaInfo | undefined = handle.states[name];
      if (meta === undefined || !Array.isArray(flat)) {
        throw corruptHandle(handle.handle, restore, what, `holds entries of state '${String(name)}', which its description does not list`);
      }
      await visit(keyGroup, name, meta, flat);
    }
  }
}
