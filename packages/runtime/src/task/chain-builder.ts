import type { Collector, ConnectorContext } from '@weir/api';
import { keyGroupRangeForSubtask } from '@weir/common';
import { createOperator, isKeyed } from '../operators/create-operator.ts';
import { outputOf, type ChainOperator } from '../operators/chain-operator.ts';
import { FailureWrapper } from '../operators/operator-failure.ts';
import type { PendingWork } from '../operators/pending-work.ts';
import { createRecordWriter, type RecordWriterContext } from '../output/create-record-writer.ts';
import type { RecordWriter } from '../output/record-writers.ts';
import { KeyContext } from '../state/key-context.ts';
import { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import { OperatorRuntimeContext, type SubtaskInfo } from './runtime-context.ts';

export interface OperatorChain {
  /** Head first. */
  readonly operators: readonly ChainOperator[];
  readonly writers: readonly RecordWriter[];
}

export interface ChainContext extends RecordWriterContext {
  readonly work: PendingWork;
}

/**
 * Instantiates the vertex's operators, tail first, so each operator's output exists when it
 * is created: the next chained operator's input, plus the record writer of every outgoing
 * edge that leaves from this operator.
 */
export function buildChain(context: ChainContext): OperatorChain {
  const { graph, vertex, subtaskIndex, jobId, attempt, work } = context;
  const parallelism = vertex.parallelism;
  const subtask: SubtaskInfo = {
    jobId,
    taskName: vertex.name,
    subtaskIndex,
    parallelism,
    maxParallelism: vertex.maxParallelism,
    attempt,
  };
  const connector: ConnectorContext = { jobId, subtaskIndex, parallelism, attemptNumber: attempt };
  const keyGroups = keyGroupRangeForSubtask(vertex.maxParallelism, parallelism, subtaskIndex);
  const operators: ChainOperator[] = [];
  const writers: RecordWriter[] = [];
  let next: Collector<unknown> | undefined;
  for (let i = vertex.operators.length - 1; i >= 0; i--) {
    const node = graph.nodes[vertex.operators[i]!.nodeId]!;
    const label = `${node.name} (${subtaskIndex + 1}/${parallelism})`;
    const failures = new FailureWrapper(label);
    const targets: Collector<unknown>[] = next === undefined ? [] : [next];
    for (const edge of vertex.outputs) {
      if (edge.sourceNodeId !== node.id) continue;
      const writer = createRecordWriter(edge, context, failures);
      writers.push(writer);
      targets.push(writer);
    }
    // Keyed operators head their chain (a HASH edge never chains), so the vertex's max
    // parallelism is the one their input was partitioned with.
    const keyed = isKeyed(node.spec)
      ? new KeyedStateBackend(new KeyContext(vertex.maxParallelism, keyGroups, label), label)
      : undefined;
    const operator = createOperator(node.spec, outputOf(targets), {
      label,
      subtaskIndex,
      failures,
      runtimeContext: new OperatorRuntimeContext(subtask, node.name, keyed),
      keyed,
      connector,
      work,
    });
    operators.unshift(operator);
    next = operator.inputs[0];
  }
  return { operators, writers };
}
