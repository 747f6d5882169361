/** Where a change event comes from (Debezium's `source` block, as Flink CDC emits it). */
export interface ChangeEventSource {
  readonly connector: 'postgresql';
  readonly db: string;
  readonly schema: string;
  readonly table: string;
  /** The commit's end LSN (X/Y); for snapshot rows, the slot's consistent point the snapshot was read at. */
  readonly lsn: string | null;
  /** The transaction id; null for snapshot rows. */
  readonly txId: number | null;
  /** Commit time (ms since the epoch); for snapshot rows, when the snapshot began. */
  readonly ts_ms: number;
  readonly snapshot: boolean;
}

/**
 * A row change in Flink CDC's (Debezium's) shape. `op`: c (insert), u (update), d (delete), r
 * (read by the snapshot). `before` of an update is the old row only with REPLICA IDENTITY
 * FULL (null otherwise); `before` of a delete holds at least the primary key.
 */
export interface ChangeEvent {
  readonly before: Record<string, unknown> | null;
  readonly after: Record<string, unknown> | null;
  readonly op: 'c' | 'u' | 'd' | 'r';
  readonly source: ChangeEventSource;
  /** When the connector read the change (ms since the epoch). */
  readonly ts_ms: number;
}

/** Turns change events into the source's records (Flink CDC's DebeziumDeserializationSchema). */
export interface DebeziumDeserializationSchema<T> {
  /** The record for one change event. */
  deserialize(event: ChangeEvent): T;
}

/** The change events themselves, typed (the default). */
export class ChangeEventDeserializationSchema implements DebeziumDeserializationSchema<ChangeEvent> {
  deserialize(event: ChangeEvent): ChangeEvent {
    return event;
  }
}

/** Debezium's JSON text of each event (Flink CDC's JsonDebeziumDeserializationSchema). */
export class JsonDebeziumDeserializationSchema implements DebeziumDeserializationSchema<string> {
  deserialize(event: ChangeEvent): string {
    return JSON.stringify(event);
  }
}
