import type { JobGraph, JobVertex, StreamGraph } from '@weir/api';
import type { Clock } from '@weir/common';
import type { CheckpointBarrierHandler } from '../checkpoint/barrier/barrier-handler.ts';
import { createBarrierHandler } from '../checkpoint/barrier/create-barrier-handler.ts';
import type { SubtaskCheckpointer } from '../checkpoint/subtask-checkpointer.ts';
import type { TaskCheckpointing } from '../checkpoint/types.ts';
import { TaskEventHandler } from '../input/channel-event-handler.ts';
import { EndedSourceInput } from '../input/ended-source-input.ts';
import { inputFailure } from '../input/input-failure.ts';
import { InputGate } from '../input/input-gate.ts';
import { NetworkInput } from '../input/network-input.ts';
import { ReplayingInput, type ReplayedBuffer } from '../input/replaying-input.ts';
import { SourceInput } from '../input/source-input.ts';
import type { TaskInput } from '../input/task-input.ts';
import type { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import type { NetworkEnvironment } from '../network/types.ts';
import type { ChainOperator } from '../operators/chain-operator.ts';
import type { SourceOperator } from '../operators/source-operator.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';
import { StatusWatermarkValve } from '../time/status-watermark-valve.ts';
import type { TaskDeploymentDescriptor } from './deployment.ts';
import { connectInputs } from './input-wiring.ts';
import type { Mailbox } from './mailbox.ts';

/** What a task with network input is wired from. */
export interface NetworkInputWiring {
  readonly head: ChainOperator;
  readonly graph: StreamGraph;
  readonly vertex: JobVertex;
  readonly jobGraph: JobGraph;
  readonly deployment: TaskDeploymentDescriptor;
  readonly network: NetworkEnvironment;
  readonly checkpointing: TaskCheckpointing | undefined;
  readonly checkpointer: SubtaskCheckpointer | undefined;
  /** Restored input channel state, fed to the head before the network. */
  readonly replay: readonly ReplayedBuffer[];
}

/**
 * Where a task's records come from: its source, or its input gate with the barrier handler,
 * the watermark valve and the restored channel state replayed first. Failures and priority
 * events of the gate go to the task's mailbox.
 */
export class TaskInputs {
  readonly gate: InputGate;
  #head: ChainOperator | undefined;
  /** The current network input, and the replay before it while that lasts. */
  #network: NetworkInput | undefined;
  #replaying: ReplayingInput | undefined;
  #barriers: CheckpointBarrierHandler | undefined;
  /** A network task's input watermark: the minimum over its channels that are not idle. */
  #valve: StatusWatermarkValve | undefined;
  #source: SourceInput | undefined;

  constructor(
    private readonly mailbox: Mailbox,
    private readonly clock: Clock,
    private readonly timestamp: RecordTimestamp,
    private readonly metrics: TaskIOMetrics,
  ) {
    this.gate = new InputGate(
      (channel, error) =>
        mailbox.put(() => {
          throw inputFailure(channel, error);
        }),
      () => mailbox.put(() => this.#processPriorityEvents()),
    );
  }

  get source(): SourceInput | undefined {
    return this.#source;
  }

  /** The watermark the task's input is at (-Infinity before the first): the valve's, or a source's reader output's. */
  get currentWatermark(): number {
    return this.#valve?.currentWatermark ?? this.#source?.currentWatermark ?? Number.NEGATIVE_INFINITY;
  }

  fromSource(head: SourceOperator): TaskInput {
    this.#source = new SourceInput(head);
    return this.#source;
  }

  /** Subscribes the channels and reads them through the barrier handler and the valve, after the replay of restored channel state. */
  fromNetwork(wiring: NetworkInputWiring): TaskInput {
    const { head, checkpointing, checkpointer } = wiring;
    this.#head = head;
    connectInputs(this.gate, wiring.graph, wiring.vertex, wiring.jobGraph, wiring.deployment, wiring.network);
    if (checkpointing !== undefined && checkpointer !== undefined) {
      this.#barriers = createBarrierHandler(checkpointing, this.gate, this.clock, checkpointer, (action) => this.mailbox.put(action));
    }
    // A restored task starts from no watermark, as in Flink: its producers send theirs again.
    this.#valve = new StatusWatermarkValve(this.gate.channels.length, {
      emitWatermark: (timestamp) => head.processWatermark(timestamp),
      emitWatermarkStatus: (idle) => head.processWatermarkStatus(idle),
    });
    const fromNetwork = this.#networkInput(() => this.gate.isDataEnded);
    if (wiring.replay.length !== 0) this.#replaying = new ReplayingInput(wiring.replay, fromNetwork, this.timestamp);
    return this.#replaying ?? fromNetwork;
  }

  /** After the end of data: a source's input idles until `mayFinish`; a network input runs on until every channel ended too. */
  afterEnd(mayFinish: () => boolean): TaskInput {
    if (this.#source !== undefined) return new EndedSourceInput(mayFinish);
    return this.#networkInput(() => this.gate.isFinished && mayFinish());
  }

  #networkInput(ended: () => boolean): NetworkInput {
    const head = this.#head!;
    const events = new TaskEventHandler(this.gate, this.#barriers, this.#valve!);
    this.#network = new NetworkInput(this.gate, head.inputs, events, ended, this.timestamp, this.metrics, head.label);
    return this.#network;
  }

  /** Restored input channel state goes first: a barrier arriving meanwhile waits for the replay to end. */
  #processPriorityEvents(): void {
    if (this.#replaying?.replayed === false) return;
    this.#network?.processPriorityEvents();
  }
}
