import { buildJobGraph, type JobGraph, type JobVertex } from '@weir/api';
import { CHECKPOINT_OPTIONS, CheckpointFailureReason, systemClock, type CheckpointOptions, type Clock, type EnumeratorEvent, type Logger } from '@weir/common';
import type { TaskCheckpointing } from '../checkpoint/types.ts';
import { PendingInputState } from '../checkpoint/channel-state/pending-input-state.ts';
import { restoreOperatorState } from '../checkpoint/restore/restore-operator-state.ts';
import { disposeOperatorStates, openOperatorStates } from '../state/state-lifecycle.ts';
import { startsUnaligned, SubtaskCheckpointer } from '../checkpoint/subtask-checkpointer.ts';
import type { ReplayedBuffer } from '../input/replaying-input.ts';
import { TaskIOMetrics, type TaskMetricsSample } from '../metrics/task-io-metrics.ts';
import { END_OF_DATA } from '../network/channel-events.ts';
import { OutputAvailability } from '../network/output-availability.ts';
import type { ResultPartition } from '../network/result-partition.ts';
import type { ChainOperator } from '../operators/chain-operator.ts';
import { PendingWork } from '../operators/pending-work.ts';
import { CollectSinkOperator } from '../operators/collect-sink-operator.ts';
import { SourceOperator } from '../operators/source-operator.ts';
import { BUFFER_TARGET_BYTES, SUBPARTITION_QUEUE_LIMIT } from '../output/create-record-writer.ts';
import { neverFlushTimer, TimeoutFlushTimer, type FlushTimer } from '../output/flush-timer.ts';
import type { RecordWriter } from '../output/record-writers.ts';
import { buildChain, type OperatorChain } from './chain-builder.ts';
import { resolveVertex } from './deployment-check.ts';
import { Running, type EndOfInputActions, type EndOfInputPhase, type Trigger } from './end-of-input.ts';
import { restoreChannelState } from './channel-state-restore.ts';
import { INITIAL_CREDIT } from './input-wiring.ts';
import { SetUpSteps } from './set-up-steps.ts';
import { TaskInputs } from './task-inputs.ts';
import { Mailbox } from './mailbox.ts';
import { TaskLoop } from './task-loop.ts';
import type { TaskOptions } from './task.ts';
import { ProcessingTimeService } from '../time/processing-time-service.ts';
import { RecordTimestamp } from '../time/record-timestamp.ts';
import { HEAP_STATE_BACKEND } from '../state/task-state-backend.ts';

/** Awaits a promise unless the task gets cancelled first (then rejects). */
export type UntilCanceled = <T>(promise: Promise<T>) => Promise<T>;

export interface TaskNetworkStats {
  /** Buffers in this task's subpartition queues, not yet handed to a consumer. */
  readonly queuedOutputBuffers: number;
  /** Buffers this task received whose credit has not gone back: queued in its channels or being processed. */
  readonly unacknowledgedInputBuffers: number;
}

/**
 * Everything a running task is made of, and the steps of its life: set up (chain, partitions,
 * restored state, open operators, inputs), run the loop to the end of data, end the input
 * (operators finish, end of data downstream), run on until the final checkpoint completed
 * and every input ended, end the partitions, tear down. The Task drives these steps and owns
 * the lifecycle; this class owns the resources.
 */
export class TaskRuntime {
  readonly mailbox = new Mailbox();
  readonly #work = new PendingWork();
  readonly #availability = new OutputAvailability();
  readonly #inputs: TaskInputs;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #vertex: JobVertex | undefined;
  #timer: FlushTimer = neverFlushTimer;
  #writers: readonly RecordWriter[] = [];
  readonly #registered: ResultPartition[] = [];
  /** Opened operators, in opening order (tail first), until closed. */
  #opened: ChainOperator[] = [];
  #loop: TaskLoop | undefined;
  #chain: OperatorChain | undefined;
  #checkpointer: SubtaskCheckpointer | undefined;
  /** From running input to the end, through the final checkpoint: end-of-input.ts. */
  #ending: EndOfInputPhase;
  /** What the phases act on, once set up. */
  #endActions: EndOfInputActions = { isSource: false, checkpointNow: () => {}, declineNotReady: () => {}, endSourceInput: () => {}, suspendSource: () => {}, awaitFinalCheckpoint: () => {} };
  /** The highest checkpoint ID this task snapshotted: what the JobManager learns when its input ends. */
  #lastSnapshot = 0;
  /** The timestamp of the record passing down the chain. */
  readonly #timestamp = new RecordTimestamp();
  /** Timers and periodic watermarks of the operators, as mail. */
  readonly #processingTime: ProcessingTimeService;
  readonly #metrics = new TaskIOMetrics();
  /** When the task started running its loop; undefined before. */
  #runningSince: number | undefined;
  /** Aborted by cancel(): the connectors' ConnectorContext.signal. */
  readonly #cancellation = new AbortController();
  /** A cancel stops waiting for the set-up step in flight, but clean-up waits for it to end. */
  readonly #setUpSteps: SetUpSteps;

  constructor(
    private readonly options: TaskOptions,
    private readonly untilCanceled: UntilCanceled,
  ) {
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger;
    // A timer due while a checkpoint's synchronous part runs fires after its barrier went out (PendingWork.runOrDefer).
    this.#processingTime = new ProcessingTimeService(this.#clock, (action) => this.mailbox.put(() => this.#work.runOrDefer(action)));
    this.#ending = new Running(options.checkpointing !== undefined);
    this.#inputs = new TaskInputs(this.mailbox, this.#clock, this.#timestamp, this.#metrics);
    this.#setUpSteps = new SetUpSteps(untilCanceled, this.#clock, this.#logger);
  }

  /** The watermark the task's input is at (-Infinity before the first): the valve's, or a source's reader output's. */
  get currentInputWatermark(): number {
    return this.#inputs.currentWatermark;
  }

  /** "<vertex name> (<subtask+1>/<parallelism>)" once the vertex is known. */
  get label(): string {
    const { deployment } = this.options;
    const vertex = this.#vertex;
    return vertex === undefined
      ? `vertex ${deployment.vertexId} subtask ${deployment.subtaskIndex}`
      : `${vertex.name} (${deployment.subtaskIndex + 1}/${vertex.parallelism})`;
  }

  get stats(): TaskNetworkStats {
    let queued = 0;
    for (const w of this.#writers) queued += w.partition.queuedBuffers;
    return { queuedOutputBuffers: queued, unacknowledgedInputBuffers: this.#inputs.gate.unacknowledgedBuffers };
  }

  /**
   * The task's counters now, its queues as they are, and its operators' metrics; `ended`: the
   * task no longer runs, so its operators' rates are 0.
   */
  sampleMetrics(ended = false): TaskMetricsSample {
    const { queuedOutputBuffers, unacknowledgedInputBuffers } = this.stats;
    let subpartitions = 0;
    for (const w of this.#writers) subpartitions += w.partition.subpartitions.length;
    const now = this.#clock.now();
    return this.#metrics.sample(now, this.#runningSince === undefined ? 0 : now - this.#runningSince, this.currentInputWatermark, {
      inputBuffers: unacknowledgedInputBuffers,
      inputCapacity: this.#inputs.gate.channels.length * INITIAL_CREDIT,
      outputBuffers: queuedOutputBuffers,
      outputCapacity: subpartitions * SUBPARTITION_QUEUE_LIMIT,
    }, (this.#chain?.metrics ?? []).map((m) => ({ operatorId: m.scope.operatorId, operatorName: m.scope.operatorName, values: m.sample(now, ended) })));
  }

  /** Builds the chain, registers its partitions, opens and restores its state, opens the operators tail first, and wires the input. */
  async setUp(): Promise<void> {
    const { deployment, graph, network, checkpointing, restore } = this.options;
    const jobGraph = this.options.jobGraph ?? buildJobGraph(graph);
    const vertex = resolveVertex(deployment, graph, jobGraph);
    this.#vertex = vertex;
    const chain = this.#buildChain(jobGraph, vertex);
    this.#chain = chain;
    this.#writers = chain.writers;
    for (const writer of chain.writers) {
      network.partitions.register(writer.partition);
      this.#registered.push(writer.partition);
    }
    await this.#setUpSteps.run(openOperatorStates(chain.states));
    let replay: readonly ReplayedBuffer[] = [];
    if (restore !== undefined) {
      for (const state of chain.states) await this.#setUpSteps.run(restoreOperatorState(restore, state));
      replay = await this.#setUpSteps.run(restoreChannelState(restore, chain, graph, vertex, this.label));
      this.#logger.info({ checkpointId: restore.checkpointId, replayedInputBuffers: replay.length }, 'state restored');
    }
    if (checkpointing !== undefined) this.#checkpointer = this.#createCheckpointer(checkpointing, chain);
    // Tail first: an operator is open before anything can send it records.
    for (let i = chain.operators.length - 1; i >= 0; i--) {
      const operator = chain.operators[i]!;
      this.#opened.push(operator);
      await this.#setUpSteps.run(operator.open());
    }
    const head = chain.operators[0]!;
    const input =
      head instanceof SourceOperator
        ? this.#inputs.fromSource(head)
        : this.#inputs.fromNetwork({ head, graph, vertex, jobGraph, deployment, network, checkpointing, checkpointer: this.#checkpointer, replay });
    this.#loop = new TaskLoop(this.mailbox, input, this.#availability, this.#work, this.#clock, this.#metrics);
    this.#endActions = this.#endOfInputActions();
  }

  #buildChain(jobGraph: JobGraph, vertex: JobVertex): OperatorChain {
    const { deployment, graph, checkpointing, restore } = this.options;
    const timeoutMs = jobGraph.bufferTimeoutMs;
    if (timeoutMs > 0) this.#timer = new TimeoutFlushTimer(this.#clock, timeoutMs, () => this.mailbox.put(() => this.#flushAll()));
    return buildChain({
      graph,
      jobGraph,
      vertex,
      jobId: deployment.jobId,
      attempt: deployment.attempt,
      subtaskIndex: deployment.subtaskIndex,
      availability: this.#availability,
      timer: this.#timer,
      targetBytes: timeoutMs === 0 ? 0 : BUFFER_TARGET_BYTES,
      work: this.#work,
      metrics: this.#metrics,
      restored: restore !== undefined,
      checkpointing: checkpointing !== undefined,
      checkpointSettings: checkpointing,
      stateBackend: this.options.stateBackend ?? HEAP_STATE_BACKEND,
      timestamp: this.#timestamp,
      processingTime: this.#processingTime,
      clock: this.#clock,
      mail: (action) => this.mailbox.put(action),
      operatorEvents: (operatorId, event) => this.options.onOperatorEvent?.(operatorId, event),
      inputWatermark: () => this.currentInputWatermark,
      signal: this.#cancellation.signal,
    });
  }

  #createCheckpointer(settings: TaskCheckpointing, chain: OperatorChain): SubtaskCheckpointer {
    return new SubtaskCheckpointer({
      settings,
      subtaskIndex: this.options.deployment.subtaskIndex,
      label: this.label,
      operators: chain.operators,
      states: chain.states,
      writers: chain.writers,
      work: this.#work,
      clock: this.#clock,
      logger: this.#logger,
      onAck: (ack) => this.options.onCheckpointAck?.(ack),
      onDecline: (decline) => this.options.onCheckpointDecline?.(decline),
      onSnapshotTaken: (checkpointId) => {
        this.#lastSnapshot = Math.max(this.#lastSnapshot, checkpointId);
        this.#advance((phase) => phase.snapshotTaken(checkpointId));
      },
      onCompleted: (checkpointId) => this.#advance((phase) => phase.checkpointCompleted(checkpointId)),
    });
  }

  /** What the end-of-input phases act on (end-of-input.ts). */
  #endOfInputActions(): EndOfInputActions {
    const source = this.#inputs.source;
    return {
      isSource: source !== undefined,
      checkpointNow: (trigger) => this.#checkpointNow(trigger),
      declineNotReady: (checkpointId, why) => this.declineNotReady(checkpointId, why),
      endSourceInput: () => source?.endInput(),
      suspendSource: () => {
        // What the savepoint holds (windows, timers) must not fire now: it fires once, after the job resumes from it.
        source?.operator.endWithoutFinalWatermark();
        source?.endInput();
      },
      awaitFinalCheckpoint: () => this.options.onAwaitingFinalCheckpoint?.({ lastCheckpointBeforeEnd: this.#lastSnapshot }),
    };
  }

  /**
   * Runs to the end: 'finished' once the final checkpoint (with checkpointing) completed,
   * every input delivered its end of partition, and every consumer took this task's.
   */
  async run(): Promise<'finished' | 'stopped'> {
    const loop = this.#loop!;
    this.#runningSince = this.#clock.now();
    if ((await loop.run()) === 'stopped') return 'stopped';
    await this.#endInput();
    this.#advance((phase) => phase.inputEnded(this.#endActions));
    const mayFinish = (): boolean => this.#ending.mayFinish;
    loop.setInput(this.#inputs.afterEnd(mayFinish));
    if ((await loop.run()) === 'stopped') return 'stopped';
    this.#advance((phase) => phase.finishing());
    // Triggers that came in after the loop's last look at its mail are declined now.
    this.mailbox.runAll();
    await this.#endPartitions();
    return 'finished';
  }

  stop(): void {
    this.#loop?.stop();
  }

  /** The task is canceled or failed from outside: the loop stops and connectors' waits end (ConnectorContext.signal). */
  cancel(reason: Error): void {
    this.#cancellation.abort(reason);
    this.stop();
  }

  /**
   * A checkpoint trigger from the JobManager: handled between two records by the task's
   * end-of-input phase (end-of-input.ts), which takes it or declines it TASK_NOT_READY. It goes
   * to source tasks, and to a task whose producers all finished (FLIP-147). Stop-with-savepoint
   * `drain` ends the source's input first and takes the savepoint after; `suspend` takes it,
   * then ends the input. Either way the task finishes after the next completed checkpoint.
   */
  triggerCheckpoint(checkpointId: number, timestamp: number, options: CheckpointOptions = CHECKPOINT_OPTIONS): void {
    if (this.#checkpointer === undefined) {
      this.declineNotReady(checkpointId, 'checkpointing is not enabled for it');
      return;
    }
    this.mailbox.put(() => this.#advance((phase) => phase.trigger({ checkpointId, timestamp, options }, this.#endActions)));
  }

  /** A checkpoint with no barrier to wait for: unaligned when the job's are (with no input state), else aligned. */
  #checkpointNow({ checkpointId, timestamp, options }: Trigger): void {
    const checkpointer = this.#checkpointer;
    if (checkpointer === undefined) return;
    if (startsUnaligned(checkpointer.settings, options)) {
      checkpointer.triggerUnalignedCheckpoint(checkpointId, timestamp, 0, options, PendingInputState.empty(checkpointId));
    } else {
      checkpointer.triggerCheckpoint(checkpointId, timestamp, 0, options);
    }
  }

  #advance(event: (phase: EndOfInputPhase) => EndOfInputPhase): void {
    const next = event(this.#ending);
    if (next === this.#ending) return;
    this.#logger.debug({ from: this.#ending.name, to: next.name }, 'end-of-input phase changed');
    this.#ending = next;
  }

  declineNotReady(checkpointId: number, why: string): void {
    this.#logger.info({ checkpointId }, `${this.label} cannot take checkpoint ${checkpointId}: ${why}`);
    queueMicrotask(() => this.options.onCheckpointDecline?.({ checkpointId, reason: CheckpointFailureReason.TASK_NOT_READY, message: why }));
  }

  notifyCheckpointComplete(checkpointId: number): void {
    const checkpointer = this.#checkpointer;
    if (checkpointer !== undefined) this.mailbox.put(() => checkpointer.notifyComplete(checkpointId));
  }

  notifyCheckpointAborted(checkpointId: number): void {
    const checkpointer = this.#checkpointer;
    if (checkpointer !== undefined) this.mailbox.put(() => checkpointer.notifyAborted(checkpointId));
  }

  /** An enumerator's event for the split source `operatorId` of this task, handled between two records; or the JobManager's credit for its collect sink. */
  dispatchOperatorEvent(operatorId: string, event: EnumeratorEvent): void {
    const operatorOf = () => this.#chain?.operators[this.#chain.states.findIndex((s) => s.operatorId === operatorId)];
    if (event.kind === 'collect-credit') {
      // At once, not as mail: a collect sink may wait for credit in `finish`, when the task runs no mail.
      const sink = operatorOf();
      if (sink instanceof CollectSinkOperator) sink.handleOperatorEvent(event);
      else this.#logger.warn({ operatorId }, 'ignored credit for an operator that is no collect sink of this task');
      return;
    }
    this.mailbox.put(() => {
      const operator = operatorOf();
      if (!(operator instanceof SourceOperator)) {
        this.#logger.warn({ operatorId, kind: event.kind }, 'ignored an enumerator event for an operator that is no split source of this task');
        return;
      }
      operator.handleOperatorEvent(event);
    });
  }

  /** Ends whatever is still live; after a failure or a cancel, subscribers get `releaseCause` and operators are closed best effort. */
  async tearDown(releaseCause: Error | undefined): Promise<void> {
    await this.#setUpSteps.settled();
    this.#advance((phase) => phase.finishing());
    this.#processingTime.shutdown();
    const checkpointer = this.#checkpointer?.close();
    this.#timer.cancel();
    this.stop();
    this.#inputs.gate.close();
    for (const partition of this.#registered) {
      if (releaseCause !== undefined) partition.release(releaseCause);
      this.options.network.partitions.unregister(partition);
    }
    for (let operator = this.#opened.pop(); operator !== undefined; operator = this.#opened.pop()) {
      try {
        await operator.close();
      } catch (err) {
        this.#logger.warn({ err, operator: operator.label }, 'closing an operator failed during clean-up');
      }
    }
    // Snapshots still uploading stop before the task reports its end (and before their local files go).
    await checkpointer;
    if (this.#chain !== undefined) {
      for (const err of await disposeOperatorStates(this.#chain.states)) this.#logger.warn({ err }, 'removing operator state failed during clean-up');
    }
  }

  /** End of data: the operators finish (sinks flush), and end of data goes downstream behind the last records. */
  async #endInput(): Promise<void> {
    // As Flink quiesces its timer service: pending processing-time timers do not fire after the end of input.
    this.#processingTime.shutdown();
    await this.untilCanceled(this.#work.drain());
    for (let i = this.#opened.length - 1; i >= 0; i--) await this.untilCanceled(this.#opened[i]!.finish());
    await this.untilCanceled(this.#work.drain());
    for (const writer of this.#writers) writer.broadcastEvent(END_OF_DATA);
  }

  /** Closes the operators, ends every partition and waits until consumers took it all. */
  async #endPartitions(): Promise<void> {
    await this.untilCanceled(this.#work.drain());
    // Head first, as opened last; an operator leaves the list once closed, so clean-up skips it.
    for (let operator = this.#opened.pop(); operator !== undefined; operator = this.#opened.pop()) {
      await this.untilCanceled(operator.close());
    }
    this.#timer.cancel();
    for (const writer of this.#writers) writer.finish();
    await this.untilCanceled(Promise.all(this.#registered.map((p) => p.whenFullyConsumed())));
  }

  #flushAll(): void {
    for (const writer of this.#writers) writer.flush();
  }
}
