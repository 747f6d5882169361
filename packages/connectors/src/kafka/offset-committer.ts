import type { Logger } from '@weir/common';
import { describeKafkaError } from './kafka-client.ts';
import type { KafkaPartitionSplit } from './kafka-partition-split.ts';

/** Commits the offsets of `splits` to the consumer group; rejects when the broker refused them. */
export type CommitOffsets = (splits: readonly KafkaPartitionSplit[]) => Promise<void>;

/**
 * Commits a KafkaSourceReader's offsets of completed checkpoints to its consumer group in the
 * background, as Flink's reader does (commitOffsetsAsync): they are only for monitoring, so
 * the task never waits for the broker. One commit at a time; checkpoints that complete
 * meanwhile are folded into one commit of the latest offsets. A failed commit is logged, not
 * retried: the next checkpoint commits newer offsets anyway.
 */
export class OffsetCommitter {
  #latest: { checkpointId: number; splits: readonly KafkaPartitionSplit[] } | undefined;
  #running: Promise<void> | undefined;
  #closed = false;

  constructor(
    private readonly commit: CommitOffsets,
    private readonly logger: Logger,
  ) {}

  /** Commits these offsets soon; returns at once. */
  request(checkpointId: number, splits: readonly KafkaPartitionSplit[]): void {
    if (this.#closed || splits.length === 0) return;
    this.#latest = { checkpointId, splits };
    this.#running ??= this.#run();
  }

  /** Takes no more requests and waits for the commit under way, if any. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#latest = undefined;
    await this.#running;
  }

  async #run(): Promise<void> {
    for (let next = this.#latest; next !== undefined; next = this.#latest) {
      this.#latest = undefined;
      try {
        await this.commit(next.splits);
      } catch (err) {
        this.logger.warn({ checkpointId: next.checkpointId, cause: describeKafkaError(err) }, 'committing the offsets of a completed checkpoint to the consumer group failed');
      }
    }
    this.#running = undefined;
  }
}
