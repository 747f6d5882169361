import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';

/** Where a partition without a committed offset starts (Kafka's auto.offset.reset). */
export const OffsetResetStrategy = { EARLIEST: 'earliest', LATEST: 'latest', NONE: 'none' } as const;
export type OffsetResetStrategy = (typeof OffsetResetStrategy)[keyof typeof OffsetResetStrategy];

export type OffsetsSpec =
  | { readonly kind: 'earliest' }
  | { readonly kind: 'latest' }
  | { readonly kind: 'timestamp'; readonly timestampMs: number }
  | { readonly kind: 'committed'; readonly reset: OffsetResetStrategy }
  | { readonly kind: 'offsets'; readonly offsets: ReadonlyMap<string, number>; readonly reset: OffsetResetStrategy };

/**
 * Where a KafkaSource starts reading, or (`setBounded`) stops (Flink's OffsetsInitializer).
 * Resolved to concrete offsets per partition by the enumerator when it discovers a partition.
 */
export class OffsetsInitializer {
  private constructor(readonly spec: OffsetsSpec) {}

  /** Starts every partition at its earliest offset. */
  static earliest(): OffsetsInitializer {
    return new OffsetsInitializer({ kind: 'earliest' });
  }

  /** The end of each partition (the last stable offset: committed data only). */
  static latest(): OffsetsInitializer {
    return new OffsetsInitializer({ kind: 'latest' });
  }

  /** The first record with a timestamp at or after `timestampMs`, else the end. */
  static timestamp(timestampMs: number): OffsetsInitializer {
    if (!Number.isFinite(timestampMs)) throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `OffsetsInitializer.timestamp() takes epoch milliseconds, got ${timestampMs}`);
    return new OffsetsInitializer({ kind: 'timestamp', timestampMs });
  }

  /** The group's committed offset (setGroupId); without one, `reset` decides (NONE: fail, naming the partition). */
  static committedOffsets(reset: OffsetResetStrategy = OffsetResetStrategy.NONE): OffsetsInitializer {
    requireReset(reset);
    return new OffsetsInitializer({ kind: 'committed', reset });
  }

  /** Given offsets by `topic-partition`; other partitions per `reset`. */
  static offsets(offsets: ReadonlyMap<string, number> | Record<string, number>, reset: OffsetResetStrategy = OffsetResetStrategy.EARLIEST): OffsetsInitializer {
    requireReset(reset);
    const map = offsets instanceof Map ? new Map(offsets) : new Map(Object.entries(offsets));
    return new OffsetsInitializer({ kind: 'offsets', offsets: map, reset });
  }
}

function requireReset(reset: unknown): void {
  if (!Object.values(OffsetResetStrategy).includes(reset as OffsetResetStrategy)) {
    throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `an OffsetResetStrategy is EARLIEST, LATEST or NONE, got ${JSON.stringify(reset)}`);
  }
}
