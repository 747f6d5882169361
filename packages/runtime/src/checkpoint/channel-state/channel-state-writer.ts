import type { ChannelStateEntry, ChannelStateHandle } from '@weir/common';
import { writeStateHandle } from '../snapshot/state-handle-writer.ts';
import type { TaskCheckpointing } from '../types.ts';
import type { ChannelBuffers } from './pending-input-state.ts';

export interface WrittenChannelState {
  readonly handle: ChannelStateHandle | undefined;
  /** Bytes of the buffers' payloads: the in-flight data persisted. */
  readonly bytes: number;
}

/**
 * Writes the in-flight buffers of an unaligned checkpoint as one ChannelStateHandle: the
 * payloads back to back, `[offset, length, recordCount]` per buffer, one entry per channel and
 * direction. Goes with the checkpoint's other files (`chk-<n>/<operatorId>-<subtask>-channel`),
 * or inline for the memory backend. No buffers: no handle.
 */
export async function writeChannelState(
  settings: TaskCheckpointing,
  checkpointId: number,
  fileName: string,
  channels: readonly ChannelBuffers[],
  what: string,
): Promise<WrittenChannelState> {
  const entries: ChannelStateEntry[] = [];
  const payloads: Uint8Array[] = [];
  let offset = 0;
  for (const channel of channels) {
    if (channel.buffers.length === 0) continue;
    const buffers: [number, number, number][] = [];
    for (const buffer of channel.buffers) {
      buffers.push([offset, buffer.payload.byteLength, buffer.recordCount]);
      payloads.push(buffer.payload);
      offset += buffer.payload.byteLength;
    }
    entries.push({ direction: channel.direction, vertexId: channel.vertexId, subtask: channel.subtask, input: channel.input, buffers });
  }
  if (entries.length === 0) return { handle: undefined, bytes: 0 };
  const bytes = Buffer.concat(payloads, offset);
  const handle = await writeStateHandle(settings, checkpointId, fileName, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), what);
  return { handle: { handle, channels: entries }, bytes: offset };
}
