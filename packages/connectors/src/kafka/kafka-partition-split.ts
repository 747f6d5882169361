import type { SourceSplit } from '@weir/api';

/** One partition of a topic as a KafkaSource split (Flink's KafkaPartitionSplit). */
export interface KafkaPartitionSplit extends SourceSplit {
  readonly topic: string;
  readonly partition: number;
  /** The offset of the next record to emit. */
  readonly offset: number;
  /** Bounded reads: the offset the split ends before. */
  readonly stoppingOffset?: number;
}
