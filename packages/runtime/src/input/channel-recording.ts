import { encodedNow } from '../network/object-buffer.ts';
import type { BufferItem, ChannelItem } from '../network/types.ts';

/**
 * The buffers of one input channel that precede its barrier of an unaligned checkpoint, taken
 * after the task's snapshot: its input channel state. Closed by that barrier (or a newer one)
 * or by the end of partition. Buffers are recorded encoded (`encodedNow`): the task processes
 * them before the checkpoint writes them, and may change the objects of an ObjectBuffer.
 */
export class ChannelRecording {
  readonly buffers: BufferItem[] = [];
  closed = false;

  constructor(readonly checkpointId: number) {}

  addAll(buffers: readonly BufferItem[]): void {
    if (!this.closed) for (const buffer of buffers) this.buffers.push(encodedNow(buffer));
  }

  /** An item in channel order: a buffer before the barrier is recorded, the barrier closes the recording. */
  onArrival(item: ChannelItem): void {
    if (this.closed) return;
    if (item.kind === 'buffer') this.buffers.push(encodedNow(item));
    else if ((item.kind === 'barrier' && item.checkpointId >= this.checkpointId) || item.kind === 'end-of-partition') this.closed = true;
  }
}
