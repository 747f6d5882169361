import type { ChannelStateEntry, ChannelStateHandle } from '@weir/common';
import type { BufferItem } from '../../network/types.ts';
import { corruptHandle, readStateHandle } from '../restore/read-state-handle.ts';
import type { TaskRestore } from '../types.ts';

export interface RestoredChannel {
  readonly entry: ChannelStateEntry;
  readonly buffers: readonly BufferItem[];
}

/** The restored task's channel state, kept on its head operator; empty when the checkpoint had none. */
export async function readChannelState(restore: TaskRestore, headOperatorId: string, label: string): Promise<RestoredChannel[]> {
  const state = restore.state.operators[headOperatorId];
  const handle: ChannelStateHandle | undefined = state?.channel;
  if (handle === undefined) return [];
  const what = `channel state of ${label}`;
  const bytes = await readStateHandle(handle.handle, restore, what);
  return handle.channels.map((entry) => ({
    entry,
    buffers: entry.buffers.map(([offset, length, recordCount]) => {
      if (offset < 0 || length < 0 || offset + length > bytes.byteLength) {
        throw corruptHandle(handle.handle, restore, what, `has a buffer at [${offset}, ${offset + length}) outside its ${bytes.byteLength} bytes`);
      }
      return { kind: 'buffer', payload: bytes.subarray(offset, offset + length), recordCount } satisfies BufferItem;
    }),
  }));
}
