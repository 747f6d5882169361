import type { SourceSplit } from '@weir/api';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../../errors.ts';

/**
 * The one split of a PostgresCdcSource: the snapshot, then the stream, read by one reader in
 * order, so every row's snapshot record comes before its changes on one channel. Its position
 * is what a checkpoint keeps.
 */
export interface PostgresCdcSplit extends SourceSplit {
  readonly phase: 'snapshot' | 'stream';
  /** Tables still to snapshot (`schema.table`), the one being read first. */
  readonly tables: readonly string[];
  /** The primary key of the last row of `tables[0]` emitted; null before its first. */
  readonly lastKey: readonly unknown[] | null;
  /**
   * Where the stream starts: the slot's consistent point (the snapshot's LSN) until the first
   * transaction is emitted, then the end LSN of the last transaction emitted. Null before the
   * slot was created (or looked up).
   */
  readonly lsn: string | null;
  /** Whether the snapshot's rows went out of an exported snapshot of the slot (exact) or, after a failure during it, of a newer one (see the README). */
  readonly exported: boolean;
}

export const CDC_SPLIT_ID = 'postgres-cdc';

export function requireCdcSplit(value: unknown): PostgresCdcSplit {
  const s = (value ?? {}) as Partial<PostgresCdcSplit>;
  const ok =
    s.splitId === CDC_SPLIT_ID &&
    (s.phase === 'snapshot' || s.phase === 'stream') &&
    Array.isArray(s.tables) &&
    s.tables.every((t) => typeof t === 'string') &&
    (s.lastKey === null || Array.isArray(s.lastKey)) &&
    (s.lsn === null || (typeof s.lsn === 'string' && /^[0-9A-F]+\/[0-9A-F]+$/i.test(s.lsn))) &&
    typeof s.exported === 'boolean';
  if (!ok) {
    throw new WeirError(ConnectorErrorCode.INVALID_POSITION, `a PostgresCdcSource split is { splitId: '${CDC_SPLIT_ID}', phase, tables, lastKey, lsn, exported }, got ${JSON.stringify(value)}`);
  }
  return s as PostgresCdcSplit;
}
