import type { Collector, ConnectorContext, JobEdge, StreamGraph } from '@weir/api';
import type { TaskCheckpointing } from '../checkpoint/types.ts';
import { keyGroupRangeForSubtask, type Clock, type ReaderEvent } from '@weir/common';
import { createOperator, isKeyed } from '../operators/create-operator.ts';
import type { ChainOperator } from '../operators/chain-operator.ts';
import { OperatorOutput, type OutputTarget } from '../operators/output.ts';
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
  /** The job's checkpoint settings (state backend, local state dir); undefined without checkpointing: heap state. */
  readonly checkpointSettings: TaskCheckpointing | undefined;
  /** The task's processing time: timers, periodic watermarks, state TTL. */
  readonly processingTime: ProcessingTimeService;
  readonly clock: Clock;
  /** The task's mailbox: actions between two records. */
  readonly mail: (action: () => void) => void;
  /** Reader events of split sources, to the enumerator of the operator. */
  readonly operatorEvents: (operatorId: string, event: ReaderEvent) => void;
  /** The task's input watermark: the head operator's currentInputWatermark. */
  readonly inputWatermark: () => number;
}

/**
 * Instantiates the vertex's operators, tail first, so each operator's output exists when it
 * is created: the next chained operator, plus the record writer of every outgoing edge that
 * leaves from this operator; an edge of a side output (`getSideOutput(tag)`) gets only what
 * the operator emits to that tag.
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
  const connector: ConnectorContext = { jobId, subtaskIndex, parallelism, attemptNumber: attempt };
  const keyGroups = keyGroupRangeForSubtask(vertex.maxParallelism, parallelism, subtaskIndex);
  const operators: ChainOperator[] = [];
  const states: OperatorStates[] = [];
  const metrics: OperatorMetrics[] = [];
  const writers: RecordWriter[] = [];
  let next: { target: ChainedTarget; tag: string | undefined } | undefined;
  for (let i = vertex.operators.length - 1; i >= 0; i--) {
    const { nodeId, operatorId } = vertex.operators[i]!;
    const node = graph.nodes[nodeId]!;
    const label = `${node.name} (${subtaskIndex + 1}/${parallelism})`;
    const failures = new FailureWrapper(label);
    const targets = new OutputTargets();
    if (next !== undefined) targets.add(next.tag, next.target);
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
    chainedIn?.connect(operator);
    next = chainedIn === undefined ? undefined : { target: chainedIn, tag: chainedEdgeTag(graph, vertex.operators[i - 1]?.nodeId, nodeId) };
  }
  return { operators, states, metrics, writers };
}

/** The side output the chained edge into `nodeId` reads, if any (a chained operator has exactly one input edge). */
function chainedEdgeTag(graph: StreamGraph, previousNodeId: number | undefined, nodeId: number): string | undefined {
  if (previousNodeId === undefined) return undefined;
  return graph.nodes[nodeId]!.inputs.find((e) => e.sourceId === previousNodeId)?.outputTag;
}

/**
 * The next operator of the chain as an output target: its (first) input gets the records, the
 * operator the watermarks. Counts them too: the operator's numRecordsIn and currentInputWatermark.
 * Created before its operator (whose metrics read it), connected to it once that exists.
 */
class ChainedTarget implements OutputTarget {
  numRecordsIn = 0;
  currentInputWatermark = Number.NEGATIVE_INFINITY;
  #input!: Collector<unknown>;
  #operator!: ChainOperator;

  connect(operator: ChainOperator): void {
    this.#operator = operator;
    this.#input = operator.inputs[0]!;
  }

  collect(record: unknown): void {
    this.numRecordsIn++;
    this.#input.collect(record);
  }

  emitWatermark(timestamp: number): void {
    this.currentInputWatermark = timestamp;
    this.#operator.processWatermark(timestamp);
  }

  emitWatermarkStatus(idle: boolean): void {
    this.#operator.processWatermarkStatus(idle);
  }
}

/** An operator's output targets, of its main output and of each side output tag. */
class OutputTargets {
  readonly #main: OutputTarget[] = [];
  readonly #sides = new Map<string, OutputTarget[]>();

  add(tag: JobEdge['outputTag'], target: OutputTarget): void {
    if (tag === undefined) this.#main.push(target);
    else {
      const side = this.#sides.get(tag);
      if (side === undefined) this.#sides.set(tag, [target]);
      else side.push(target);
    }
  }

  output(): OperatorOutput {
    return new OperatorOutput(this.#main, this.#sides);
  }
}

/** The job's state backend: LevelDB when its checkpoint settings say so, heap state otherwise (also without checkpointing). */
function createKeyedBackend(context: ChainContext, keys: KeyContext, label: string, operatorId: string): KeyedStateBackend {
  const settings = context.checkpointSettings;
  if (settings?.backend !== 'level') return new HeapKeyedStateBackend(keys, label, context.clock);
  return new LevelKeyedStateBackend({
    keys,
    label,
    localStateDir: settings.localStateDir,
    jobId: context.jobId,
    operatorId,
    subtaskIndex: context.subtaskIndex,
    incremental: settings.incremental,
    work: context.work,
    clock: context.clock,
  });
}
