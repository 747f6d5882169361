import type { BufferItem, ChannelItem } from './types.ts';

/**
 * Puts a priority event (an unaligned barrier) into a channel queue ahead of the buffers at
 * its tail, behind the last event already queued (an earlier barrier or end of data keeps its
 * place), and returns the buffers it overtook, in order. Producer and consumer queues both.
 */
export function insertBeforeTrailingBuffers(queue: ChannelItem[], event: ChannelItem): BufferItem[] {
  let at = queue.length;
  while (at > 0 && queue[at - 1]!.kind === 'buffer') at--;
  const overtaken = queue.slice(at) as BufferItem[];
  queue.splice(at, 0, event);
  return overtaken;
}
