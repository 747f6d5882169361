import { buildJobGraph, type JobVertex } from '@weir/api';
import { systemClock, type Clock, type Logger } from '@weir/common';
import { InputGate } from '../input/input-gate.ts';
import { inputFailure } from '../input/input-failure.ts';
import { SourceInput } from '../input/source-input.ts';
import type { TaskInput } from '../input/task-input.ts';
import { OutputAvailability } from '../network/output-availability.ts';
import type { ResultPartition } from '../network/result-partition.ts';
import type { ChainOperator } from '../operators/chain-operator.ts';
import { PendingWork } from '../operators/pending-work.ts';
import { SourceOperator } from '../operators/source-operator.ts';
import { BUFFER_TARGET_BYTES } from '../output/create-record-writer.ts';
import { neverFlushTimer, TimeoutFlushTimer, type FlushTimer } from '../output/flush-timer.ts';
import type { RecordWriter } from '../output/record-writers.ts';
import { buildChain } from './chain-builder.ts';
import { resolveVertex } from './deployment-check.ts';
import { connectInputs } from './input-wiring.ts';
import { Mailbox } from './mailbox.ts';
import { TaskLoop, type LoopOutcome } from './task-loop.ts';
import type { TaskOptions } from './task.ts';

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
 * open operators, inputs), run the loop, finish at end of input, tear down. The Task drives
 * these steps and owns the lifecycle; this class owns the resources.
 */
export class TaskRuntime {
  readonly mailbox = new Mailbox();
  readonly #work = new PendingWork();
  readonly #availability = new OutputAvailability();
  readonly #gate = new InputGate((channel, error) =>
    this.mailbox.put(() => {
      throw inputFailure(channel, error);
    }),
  );
  readonly #clock: Clock;
  readonly #logger: Logger;
  #vertex: JobVertex | undefined;
  #timer: FlushTimer = neverFlushTimer;
  #writers: readonly RecordWriter[] = [];
  readonly #registered: ResultPartition[] = [];
  /** Opened operators, in opening order (tail first), until closed. */
  #opened: ChainOperator[] = [];
  #loop: TaskLoop | undefined;

  constructor(
    private readonly options: TaskOptions,
    private readonly untilCanceled: UntilCanceled,
  ) {
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger;
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
    return { queuedOutputBuffers: queued, unacknowledgedInputBuffers: this.#gate.unacknowledgedBuffers };
  }

  async setUp(): Promise<void> {
    const { deployment, graph, network } = this.options;
    const jobGraph = this.options.jobGraph ?? buildJobGraph(graph);
    const vertex = resolveVertex(deployment, graph, jobGraph);
    this.#vertex = vertex;
    const timeoutMs = jobGraph.bufferTimeoutMs;
    if (timeoutMs > 0) this.#timer = new TimeoutFlushTimer(this.#clock, timeoutMs, () => this.mailbox.put(() => this.#flushAll()));
    const chain = buildChain({
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
    });
    this.#writers = chain.writers;
    for (const writer of chain.writers) {
      network.partitions.register(writer.partition);
      this.#registered.push(writer.partition);
    }
    // Tail first: an operator is open before anything can send it records.
    for (let i = chain.operators.length - 1; i >= 0; i--) {
      const operator = chain.operators[i]!;
      this.#opened.push(operator);
      await this.untilCanceled(operator.open());
    }
    const head = chain.operators[0]!;
    const input: TaskInput =
      head instanceof SourceOperator
        ? new SourceInput(head)
        : connectInputs(this.#gate, vertex, jobGraph, deployment, network, head.inputs);
    this.#loop = new TaskLoop(this.mailbox, input, this.#availability, this.#work, this.#clock);
  }

  run(): Promise<LoopOutcome> {
    return this.#loop!.run();
  }

  stop(): void {
    this.#loop?.stop();
  }

  /** End of input: finish the operators (sinks flush), close them, end every partition and wait until consumers took it all. */
  async finish(): Promise<void> {
    await this.untilCanceled(this.#work.drain());
    for (let i = this.#opened.length - 1; i >= 0; i--) await this.untilCanceled(this.#opened[i]!.finish());
    await this.untilCanceled(this.#work.drain());
    // Head first, as opened last; an operator leaves the list once closed, so clean-up skips it.
    for (let operator = this.#opened.pop(); operator !== undefined; operator = this.#opened.pop()) {
      await this.untilCanceled(operator.close());
    }
    this.#timer.cancel();
    for (const writer of this.#writers) writer.finish();
    await this.untilCanceled(Promise.all(this.#registered.map((p) => p.whenFullyConsumed())));
  }

  /** Ends whatever is still live; after a failure or a cancel, subscribers get `releaseCause` and operators are closed best effort. */
  async tearDown(releaseCause: Error | undefined): Promise<void> {
    this.#timer.cancel();
    this.stop();
    this.#gate.close();
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
  }

  #flushAll(): void {
    for (const writer of this.#writers) writer.flush();
  }
}
