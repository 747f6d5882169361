import type { CheckpointOptions } from '@weir/common';
import type { RecordBatch } from '../codec/record-codec.ts';

/**
 * The data plane's contract between a task's inputs and outputs, local or remote.
 *
 * A producer subtask writes one ResultPartition per outgoing edge, with one subpartition per
 * consumer subtask. A consumer subscribes to the subpartitions it reads: through the local
 * PartitionRegistry when the producer runs in the same TaskManager, through a
 * RemoteConnector (gRPC DataExchange, implemented by @weir/taskmanager) otherwise. Both
 * paths have the same shape and the same credit-based flow control: the consumer grants
 * credit for buffers it has room for; the producer sends a record buffer only against a
 * credit and queues the rest; when a subpartition's queue is long the producing task stops
 * producing, and so backpressure travels up to the sources. Events (end of partition, end of
 * data, checkpoint barriers, watermarks and idleness) travel in order with the buffers and need
 * no credit; an unaligned barrier is a priority event: it goes ahead of the buffers queued before it.
 */

/** Names one subpartition: what a consumer subscribes to. */
export interface SubpartitionId {
  readonly jobId: string;
  readonly attempt: number;
  readonly producerVertexId: string;
  readonly producerSubtask: number;
  readonly consumerVertexId: string;
  /** The edge's position among the consumer vertex's inputs (PartitionId.consumerInput). */
  readonly consumerInput: number;
  readonly consumerSubtask: number;
}

export type ChannelItem =
  /**
   * `recordCount` records and their timestamps, encoded by their stream's RecordCodec. A buffer handed to a
   * consumer in the same TaskManager under object reuse carries the records themselves in
   * `batch`; its payload is then encoded only when asked for (channel state of an unaligned
   * checkpoint).
   */
  | { readonly kind: 'buffer'; readonly payload: Uint8Array; readonly recordCount: number; readonly batch?: RecordBatch }
  /**
   * Everything before belongs to checkpoint `checkpointId`, nothing after. An unaligned
   * barrier overtook the buffers queued before it (the producer saved them as output channel
   * state) and overtakes the consumer's queued buffers too (saved as input channel state).
   */
  | { readonly kind: 'barrier'; readonly checkpointId: number; readonly timestamp: number; readonly options: CheckpointOptions; readonly unaligned: boolean }
  /** The producer aborted checkpoint `checkpointId`: do not wait for its barrier here. */
  | { readonly kind: 'cancel-checkpoint'; readonly checkpointId: number }
  /** No record with a timestamp <= `timestamp` follows on this channel (+Infinity: the input ended). */
  | { readonly kind: 'watermark'; readonly timestamp: number }
  /** The producer has no records for now (idle) or again (active): an idle channel does not hold back the consumer's watermark. */
  | { readonly kind: 'watermark-status'; readonly idle: boolean }
  /** No more records; with checkpointing the channel stays open for the final checkpoint's barrier. */
  | { readonly kind: 'end-of-data' }
  /** Nothing more will come on this subpartition. */
  | { readonly kind: 'end-of-partition' };

export type BufferItem = Extract<ChannelItem, { kind: 'buffer' }>;

/** Consumer-side callbacks of one subscription. Called on the event loop, never re-entrantly. */
export interface ChannelListener {
  /** A consumer in the producer's own process, which can take records as objects (object reuse). */
  readonly local?: boolean;
  onItem(item: ChannelItem): void;
  /** The producer failed, was released, or the connection broke; no more items follow. */
  onError(error: Error): void;
}

/** A live subscription to one subpartition. */
export interface Subscription {
  /** The consumer has room for this many more record buffers. */
  addCredit(buffers: number): void;
  /** The consumer is done (end of partition seen) or cancelled; the producer stops sending. */
  close(): void;
}

/** Serves subscriptions to the partitions of tasks running in this process. */
export interface PartitionProvider {
  /**
   * Subscribes to a subpartition. When its producer has not registered yet, waits for it
   * (tasks of one job deploy in any order) and fails the listener with PARTITION_NOT_FOUND
   * after a timeout.
   */
  subscribe(id: SubpartitionId, initialCredit: number, listener: ChannelListener): Subscription;
}

/** Subscribes to a subpartition of a producer in another TaskManager. */
export interface RemoteConnector {
  connect(dataAddress: string, id: SubpartitionId, initialCredit: number, listener: ChannelListener): Subscription;
}

/** What a TaskManager gives each task for its inputs and outputs. */
export interface NetworkEnvironment {
  readonly taskManagerId: string;
  /** This TaskManager's partitions: tasks register theirs here, local consumers and the DataExchange server subscribe here. */
  readonly partitions: PartitionRegistryLike;
  readonly remote: RemoteConnector;
}

/** Names one result partition: the output of one producer subtask on its edge to one consumer vertex. */
export interface PartitionId {
  readonly jobId: string;
  readonly attempt: number;
  readonly producerVertexId: string;
  readonly producerSubtask: number;
  readonly consumerVertexId: string;
  /**
   * The edge's position among the consumer vertex's inputs: a chain that forks can have two
   * edges to one vertex (Nexmark q3's two filters into one join), each its own partition, as
   * each JobEdge is its own IntermediateDataSet in Flink.
   */
  readonly consumerInput: number;
}

/** A producer task's result partition as the registry serves it. */
export interface ProducedPartition {
  readonly id: PartitionId;
  /** Attaches a consumer to one subpartition; throws a WeirError when the subtask is out of range or already subscribed. */
  subscribe(consumerSubtask: number, initialCredit: number, listener: ChannelListener): Subscription;
  /** Fails every subscriber that has not seen the end of partition yet, with `cause`; the partition serves nothing more. */
  release(cause: Error): void;
}

/** The registry's surface as tasks and the TaskManager use it; implemented by PartitionRegistry. */
export interface PartitionRegistryLike extends PartitionProvider {
  /** Releases every partition of a job attempt (its tasks ended or were cancelled); their subscribers get an error. */
  releaseAttempt(jobId: string, attempt: number): void;
  /** Makes a task's partition subscribable and hands it the subscribers that were waiting for it. */
  register(partition: ProducedPartition): void;
  /** Forgets a partition (its task ended); releasing it is the task's business. */
  unregister(partition: ProducedPartition): void;
}
