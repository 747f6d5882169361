import type { JobEdge, JobGraph, JobVertex, StreamGraph } from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import type { OutputAvailability } from '../network/output-availability.ts';
import { ResultPartition } from '../network/result-partition.ts';
import type { FailureWrapper } from '../operators/operator-failure.ts';
import { edgeCodec } from '../codec/edge-codec.ts';
import { ForwardSelector, RebalanceSelector } from './channel-selectors.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';
import type { FlushTimer } from './flush-timer.ts';
import { BroadcastRecordWriter, KeyedRecordWriter, SelectingRecordWriter, type RecordWriter } from './record-writers.ts';

/** A subpartition with this many queued buffers stops its task until the consumer takes some. */
export const SUBPARTITION_QUEUE_LIMIT = 4;
/** A batch becomes a buffer when it reaches about this size. */
export const BUFFER_TARGET_BYTES = 32 * 1024;

export interface RecordWriterContext {
  readonly graph: StreamGraph;
  readonly jobGraph: JobGraph;
  readonly vertex: JobVertex;
  readonly jobId: string;
  readonly attempt: number;
  readonly subtaskIndex: number;
  readonly availability: OutputAvailability;
  readonly timer: FlushTimer;
  /** 0 when the buffer timeout is 0: every record is flushed at once. */
  readonly targetBytes: number;
  /** The task's current record timestamp: written with each record. */
  readonly timestamp: RecordTimestamp;
  readonly metrics: TaskIOMetrics;
}

/** The partition and record writer of one outgoing edge, by its partitioner. */
export function createRecordWriter(edge: JobEdge, context: RecordWriterContext, failures: FailureWrapper): RecordWriter {
  const { jobGraph, vertex, subtaskIndex } = context;
  const target = jobGraph.vertices.find((v) => v.id === edge.targetVertexId);
  if (target === undefined) {
    throw new WeirError(RuntimeErrorCode.INVALID_GRAPH, `vertex '${vertex.name}' has an edge to ${edge.targetVertexId}, which is not in the job graph`);
  }
  const partition = new ResultPartition(
    {
      jobId: context.jobId,
      attempt: context.attempt,
      producerVertexId: vertex.id,
      producerSubtask: subtaskIndex,
      consumerVertexId: target.id,
      consumerInput: consumerInput(edge, target),
    },
    target.parallelism,
    context.availability,
    SUBPARTITION_QUEUE_LIMIT,
  );
  const { timer, targetBytes, timestamp, metrics } = context;
  const options = { timer, targetBytes, timestamp, metrics, objectReuse: context.graph.config.objectReuse };
  const codec = edgeCodec(context.graph, edge);
  switch (edge.partitioner) {
    case 'forward':
      if (target.parallelism !== vertex.parallelism) {
        throw new WeirError(
          RuntimeErrorCode.INVALID_GRAPH,
          `the forward edge from '${vertex.name}' (parallelism ${vertex.parallelism}) to '${target.name}' (parallelism ` +
            `${target.parallelism}) needs equal parallelism; use rebalance() or equal parallelism`,
        );
      }
      return new SelectingRecordWriter(partition, new ForwardSelector(subtaskIndex), codec, failures, options);
    case 'rebalance':
      return new SelectingRecordWriter(partition, new RebalanceSelector(target.parallelism, subtaskIndex), codec, failures, options);
    case 'hash': {
      const streamEdge = context.graph.nodes[edge.targetNodeId]?.inputs.find(
        (e) => e.sourceId === edge.sourceNodeId && e.inputIndex === edge.inputIndex && e.partitioner === 'hash',
      );
      if (streamEdge?.keySelector === undefined) {
        throw new WeirError(RuntimeErrorCode.INVALID_GRAPH, `the hash edge from '${vertex.name}' to '${target.name}' has no key selector`);
      }
      return new KeyedRecordWriter(partition, streamEdge.keySelector, target.maxParallelism, codec, failures, options);
    }
    case 'broadcast':
      return new BroadcastRecordWriter(partition, codec, failures, options);
  }
}

/** The edge's position among its target vertex's inputs, which lists the same edges (PartitionId.consumerInput). */
function consumerInput(edge: JobEdge, target: JobVertex): number {
  const index = target.inputs.findIndex(
    (e) => e.sourceNodeId === edge.sourceNodeId && e.targetNodeId === edge.targetNodeId && e.inputIndex === edge.inputIndex && e.outputTag === edge.outputTag,
  );
  if (index < 0) throw new WeirError(RuntimeErrorCode.INVALID_GRAPH, `the edge from node ${edge.sourceNodeId} to '${target.name}' is not among its inputs`);
  return index;
}
