import type { JobVertex, StreamGraph } from '@weir/api';
import { edgeCodec } from '../codec/edge-codec.ts';
import { WeirError } from '@weir/common';
import { readChannelState } from '../checkpoint/channel-state/channel-state-reader.ts';
import type { TaskRestore } from '../checkpoint/types.ts';
import { RuntimeErrorCode } from '../errors.ts';
import type { ReplayedBuffer } from '../input/replaying-input.ts';
import type { OperatorChain } from './chain-builder.ts';

/**
 * Puts an unaligned checkpoint's channel state back: output buffers go first into the
 * subpartition of the same consumer subtask (re-sent before any new output); input buffers are
 * returned, in channel order, for the task to feed to its head operator before its network
 * input. The JobManager restores channel state only at the same parallelism.
 */
export async function restoreChannelState(
  restore: TaskRestore,
  chain: OperatorChain,
  graph: StreamGraph,
  vertex: JobVertex,
  label: string,
): Promise<ReplayedBuffer[]> {
  const head = chain.operators[0]!;
  const channels = await readChannelState(restore, chain.states[0]!.operatorId, label);
  const inputs: ReplayedBuffer[] = [];
  for (const { entry, buffers } of channels) {
    const where = `${entry.direction} channel state of ${label} for ${entry.vertexId}[${entry.subtask}] in checkpoint ${restore.checkpointId}`;
    if (entry.direction === 'output') {
      const writer = chain.writers.find((w) => w.partition.id.consumerVertexId === entry.vertexId && (entry.input === undefined || w.partition.id.consumerInput === entry.input));
      const subpartition = writer?.partition.subpartitions[entry.subtask];
      if (subpartition === undefined) throw unmatched(where, 'the task has no such output');
      for (const buffer of buffers) subpartition.addBuffer(buffer.payload, buffer.recordCount);
      continue;
    }
    const edge = entry.input === undefined ? vertex.inputs.find((e) => e.sourceVertexId === entry.vertexId) : vertex.inputs[entry.input];
    const target = edge === undefined || edge.sourceVertexId !== entry.vertexId ? undefined : head.inputs[edge.inputIndex];
    if (target === undefined) throw unmatched(where, 'the task has no such input');
    const codec = edgeCodec(graph, edge!);
    for (const buffer of buffers) inputs.push({ target, codec, payload: buffer.payload });
  }
  return inputs;
}

function unmatched(where: string, why: string): WeirError {
  return new WeirError(
    RuntimeErrorCode.CHECKPOINT_RESTORE_FAILED,
    `cannot restore the ${where}: ${why}; channel state restores only into the same job graph at the same parallelism`,
  );
}
