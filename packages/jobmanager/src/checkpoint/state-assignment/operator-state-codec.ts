import { encodeOperatorLists, type OperatorList, type OperatorStateHandle, type StreamStateHandle } from '@weir/common';

/** A handle holding `lists`, inline: redistributed operator state is small and has no file of its own. */
export function inlineOperatorLists(lists: ReadonlyMap<string, OperatorList>): OperatorStateHandle {
  const { bytes, states } = encodeOperatorLists(lists);
  const handle: StreamStateHandle = { kind: 'inline', data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), size: bytes.byteLength };
  return { handle, states };
}
