import type { OperatorStateHandle } from '@weir/common';
import type { OperatorListSnapshot } from '../../state/operator-state-store.ts';
import { packState } from '../state-codec.ts';

export interface SerializedOperatorState {
  readonly bytes: Uint8Array;
  readonly states: OperatorStateHandle['states'];
}

/** One operator's lists as one MessagePack map of name to entries; operator state is small, so one blob. */
export function serializeOperatorState(lists: ReadonlyMap<string, OperatorListSnapshot>): SerializedOperatorState {
  const entries: Record<string, readonly unknown[]> = {};
  const states: Record<string, { mode: 'split' | 'union' }> = {};
  for (const [name, list] of lists) {
    entries[name] = list.entries;
    states[name] = { mode: list.mode };
  }
  return { bytes: packState(entries), states };
}
