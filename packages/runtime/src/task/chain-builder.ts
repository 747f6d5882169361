import type { ConnectorContext } from '@weir/api';
import type { TaskCheckpointing } from '../checkpoint/types.ts';
import { keyGroupRangeForSubtask, type Clock, type ReaderEvent } from '@weir/common';
import { createOperator, isKeyed } from '../operators/create-operator.ts';
import type { ChainOperator } from '../operators/chain-operator.ts';
import { ChainedTarget, OutputTargets } from './chained-outputs.ts';
import { edgeCodec } from '../codec/edge-codec.ts';
import type { ProcessingTimeService } from '../time/processing-time-service.ts';
import { FailureWrapper } from '../operators/operator-failure.ts';
import type { PendingWork } from '../operators/pending-work.ts';
import { createRecordWriter, type RecordWriterContext } from '../output/create-record-writer.ts';
import type { RecordWriter } from '../output/record-writers.ts';
import { KeyContext } from '../state/key-context.ts';
import { HeapKeyedStateBackend } from '../state/heap-keyed-state-backend.ts';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import { LevelKeyedStateBackend } from '../state/level/level-keyed-state-backend.ts';
import { OperatorStateStore } from '../state/operator-state-store.ts';
import type { TaskStateBackend } from '../state/task-state-backend.ts';
import { OperatorRuntimeContext, type SubtaskInfo } from './runtime-context.ts';
import { OperatorMetrics } from '../metrics/operator-metric-group.ts';
import { registerOperatorIO } from '../metrics/operator-io-metrics.ts';

/** The state of one operator of the chain, by operator ID: what a checkpoint captures and a restore fills. */
export interface OperatorStates {
  readonly operatorId: string;
  readonly label: string;
  readonly keyed: KeyedStateBackend | undefined;
  readonly lists: OperatorStateStore;
}

export interface OperatorChain {
  /** Head first. */
  readonly operators: readonly ChainOperator[];
  /** Parallel to `operators`. */
  readonly states: readonly OperatorStates[];
  /** Parallel to `operators`: Flink's operator metric groups, the built-in metrics and the user's. */
  readonly metrics: readonly OperatorMetrics[];
  readonly writers: readonly RecordWriter[];
}

export interface ChainContext extends RecordWriterContext {
  readonly work: PendingWork;
  /** The task starts from a checkpoint. */
  readonly restored: boolean;
  readonly checkpointing: boolean;
  /** The job's checkpoint settings (incremental, changelog); undefined without checkpointing. */
  readonly checkpointSettings: TaskCheckpointing | undefined;
  /** Where keyed state lives, with or without checkpointing. */
  readonly stateBackend: TaskStateBackend;
  /** The task's processing time: timers, periodic watermarks, state TTL. */
  readonly processingTime: ProcessingTimeService;
  readonly clock: Clock;
  /** The task's mailbox: actions between two records. */
  readonly mail: (action: () => void) => void;
  /** Reader events of split sources, to the enumerator of the operator. */
  readonly operatorEvents: (operatorId: string, event: ReaderEvent) => void;
  /** The task's input watermark: the head operator's currentInputWatermark. */
  readonly inputWatermark: () => number;
  /** Aborted when the task is canceled or fails: the connectors' ConnectorContext.signal. */
  readonly signal: AbortSignal;
}

/**
 * Instantiates the vertex's operators, tail first, so each operator's output exists when it
 * is created: the operators chained to it (one or several: a chain can fork, as in Flink), plus
 * the record writer of every outgoing edge that leaves from this operator; an edge of a side
 * output (`getSideOutput(tag)`) gets only what the operator emits to that tag.
 */
export function buildChain(context: ChainContext): OperatorChain {
  const { graph, vertex, subtaskIndex, jobId, attempt, work, restored, checkpointing } = context;
  const parallelism = vertex.parallelism;
  const subtask: SubtaskInfo = {
    jobId,
    taskName: vertex.name,
    subtaskIndex,
    parallelism,
    maxParallelism: vertex.maxParallelism,
    attempt,
  };
  const connector: ConnectorContext = { jobId, subtaskIndex, parallelism, attemptNumber: attempt, signal: context.signal };
  const keyGroups = keyGroupRangeForSubtask(vertex.maxParallelism, parallelism, subtaskIndex);
  const operators: ChainOperator[] = [];
  const states: OperatorStates[] = [];
  const metrics: OperatorMetrics[] = [];
  const writers: RecordWriter[] = [];
  // The chained input of each operator below the head, by node id, created with its operator.
  const chainedInputs = new Map<number, ChainedTarget>();
  const objectReuse = graph.config.objectReuse;
  // Tail first: node ids are topological, so an operator's chained successors exist before it.
  for (let i = vertex.operators.length - 1; i >= 0; i--) {
    const { nodeId, operatorId } = vertex.operators[i]!;
    const node = graph.nodes[nodeId]!;
    const label = `${node.name} (${subtaskIndex + 1}/${parallelism})`;
    const failures = new FailureWrapper(label);
    const targets = new OutputTargets();
    // In node id order, as the edges are listed: the first-declared branch gets a record first.
    for (const [successor, chained] of [...chainedInputs].sort(([a], [b]) => a - b)) {
      const edge = graph.nodes[successor]!.inputs[0]!;
      if (edge.sourceId !== nodeId) continue;
      const codec = objectReuse ? undefined : edgeCodec(graph, { sourceNodeId: nodeId, targetNodeId: successor, targetVertexId: vertex.id, outputTag: edge.outputTag });
      targets.addChained(edge.outputTag, chained, codec);
    }
    for (const edge of vertex.outputs) {
      if (edge.sourceNodeId !== node.id) continue;
      const writer = createRecordWriter(edge, context, failures);
      writers.push(writer);
      targets.add(edge.outputTag, writer);
    }
    // Keyed operators head their chain (a HASH edge never chains), so the vertex's max
    // parallelism is the one their input was partitioned with.
    const keyed = isKeyed(node.spec) ? createKeyedBackend(context, new KeyContext(vertex.maxParallelism, keyGroups, label), label, operatorId) : undefined;
    const lists = new OperatorStateStore(label);
    const output = targets.output();
    const operatorMetrics = new OperatorMetrics({ jobId, jobName: context.jobGraph.jobName, taskName: vertex.name, subtaskIndex, attempt, operatorId, operatorName: node.name });
    // The head's input is the task's (counted per buffer); a chained operator's, what the previous one hands it.
    const chainedIn = i === 0 ? undefined : new ChainedTarget();
    registerOperatorIO(operatorMetrics, {
      numRecordsIn: chainedIn === undefined ? () => context.metrics.numRecordsIn : () => chainedIn.numRecordsIn,
      numRecordsOut: () => output.numRecordsOut,
      currentInputWatermark: chainedIn === undefined ? context.inputWatermark : () => chainedIn.currentInputWatermark,
      currentOutputWatermark: () => output.currentOutputWatermark,
    });
    const operator = createOperator(node.spec, output, {
      operatorId,
      label,
      subtaskIndex,
      failures,
      runtimeContext: new OperatorRuntimeContext(subtask, node.name, keyed, operatorMetrics.group),
      keyed,
      lists,
      restored,
      checkpointing,
      connector,
      work,
      timestamp: context.timestamp,
      processingTime: context.processingTime,
      autoWatermarkIntervalMs: context.jobGraph.autoWatermarkIntervalMs,
      mail: context.mail,
      clock: context.clock,
      sendOperatorEvent: (event) => context.operatorEvents(operatorId, event),
    });
    operators.unshift(operator);
    states.unshift({ operatorId, label, keyed, lists });
    metrics.unshift(operatorMetrics);
    if (chainedIn !== undefined) {
      chainedIn.connect(operator);
      chainedInputs.set(nodeId, chainedIn);
    }
  }
  return { operators, states, metrics, writers };
}

/** The job's keyed state backend (Flink's state.backend), whether or not it checkpoints; incremental and changelog snapshots only with checkpointing. */
function createKeyedBackend(context: ChainContext, keys: KeyContext, label: string, operatorId: string): KeyedStateBackend {
  const backend = context.stateBackend;
  if (backend.kind === 'heap') return new HeapKeyedStateBackend(keys, label, context.clock);
  const settings = context.checkpointSettings;
  return new LevelKeyedStateBackend({
    keys,
    label,
    localStateDir: backend.localStateDir,
    jobId: context.jobId,
    operatorId,
    subtaskIndex: context.subtaskIndex,
    incremental: settings?.incremental ?? false,
    ...(backend.levelTuning === undefined ? {} : { tuning: backend.levelTuning }),
    ...(settings?.changelog === undefined ? {} : { changelog: { storage: settings.storage, materializeIntervalMs: settings.changelog.materializeIntervalMs } }),
    work: context.work,
    clock: context.clock,
  });
}
