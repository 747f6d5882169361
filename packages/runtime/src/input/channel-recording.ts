import type { BufferItem } from '../network/types.ts';
import type { ChannelItem } from '../network/types.ts';

/**
 * The buffers of one input channel that precede its barrier of an unaligned checkpoint, taken
 * after the task's snapshot: its input channel state. Closed by that barrier (or a newer one)
 * or by the end of partition.
 */
export class ChannelRecording {
  readonly buffers: BufferItem[] = [];
  closed = false;

  constructor(readonly checkpointId: number) {}

  addAll(buffers: readonly BufferItem[]): void {
    if (!this.closed) this.buffers.push(...buffers);
  }

  /** An item in channel order: a buffer before the barrier is recorded, the barrier closes the recording. */
  onArrival(item: ChannelItem): void {
    if (this.closed) return;
    if (item.kind === 'buffer') this.buffers.push(item);
    else if ((item.kind === 'barrier' && item.checkpointId >= this.checkpointId) || item.kind === 'end-of-partition') this.closed = true;
  }
}
