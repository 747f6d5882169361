import { Packr, Unpackr } from 'msgpackr';
import { parseCollectCredit, parseCollectRows, type CollectCreditEvent, type CollectRowsEvent } from './collect-events.ts';

/**
 * Events between a split source's readers (in the tasks) and its SplitEnumerator (on the
 * JobManager side), Flink's OperatorEvents for FLIP-27 sources. Splits are plain
 * MessagePack-serializable data; the wire carries each event as MessagePack bytes.
 */

/** Task → JobManager: a reader's to its enumerator, or a collect sink's rows (collect-events.ts). */
export type ReaderEvent =
  | CollectRowsEvent
  /** The reader's task is running and its restored splits are added: it can take splits. */
  | { readonly kind: 'reader-registered' }
  /** The reader wants a split (pull-based sources). */
  | { readonly kind: 'split-request' };

/** JobManager → task: an enumerator's to its reader, or a collect sink's credit (collect-events.ts). */
export type EnumeratorEvent =
  | CollectCreditEvent
  | { readonly kind: 'add-splits'; readonly splits: readonly unknown[] }
  | { readonly kind: 'no-more-splits' };

/** An event for or from the reader of split source `operatorId` (the wire's OperatorEvent; its codec is in @weir/rpc's `src/control/`). */
export interface SourceOperatorEvent<E> {
  readonly operatorId: string;
  readonly event: E;
}

const READER_KINDS = new Set(['reader-registered', 'split-request']);

/** A decoded reader event, or a string saying why it is none. */
export function parseReaderEvent(value: unknown): ReaderEvent | string {
  const kind = (value as { kind?: unknown } | null)?.kind;
  if (typeof kind === 'string' && READER_KINDS.has(kind)) return value as ReaderEvent;
  return (value !== null && typeof value === 'object' ? parseCollectRows(value) : undefined) ?? `not a reader event: ${JSON.stringify(value)}`;
}

/** A decoded enumerator event, or a string saying why it is none. */
export function parseEnumeratorEvent(value: unknown): EnumeratorEvent | string {
  const event = value as { kind?: unknown; splits?: unknown } | null;
  if (event?.kind === 'no-more-splits') return { kind: 'no-more-splits' };
  if (event?.kind === 'add-splits' && Array.isArray(event.splits)) return { kind: 'add-splits', splits: event.splits };
  const credit = event !== null && typeof event === 'object' ? parseCollectCredit(event) : undefined;
  if (credit !== undefined) return credit;
  return `not an enumerator event: ${JSON.stringify(value)}`;
}

const packr = new Packr({ useRecords: false });
const unpackr = new Unpackr({ useRecords: false });

/** The wire form of an event: MessagePack, as splits and operator state are. */
export function encodeSourceEvent(event: ReaderEvent | EnumeratorEvent): Uint8Array {
  return packr.pack(event);
}

/** The event in `bytes`, checked by `parse`; a string says why it is none. */
export function decodeSourceEvent<E>(bytes: Uint8Array, parse: (value: unknown) => E | string): E | string {
  try {
    return parse(unpackr.unpack(bytes));
  } catch (err) {
    return `its bytes are not MessagePack (${(err as Error).message})`;
  }
}

/** A split enumerator's checkpoint state as `_metadata` keeps it: base64 of its MessagePack. */
export function encodeCoordinatorState(state: unknown): string {
  return Buffer.from(packr.pack(state)).toString('base64');
}

export function decodeCoordinatorState(encoded: string): unknown {
  return unpackr.unpack(Buffer.from(encoded, 'base64'));
}
