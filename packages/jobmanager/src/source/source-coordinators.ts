import { isSplitSource, type JobGraph, type SourceSplit, type SplitSource, type StreamGraph } from '@weir/api';
import { WeirError, type EnumeratorEvent, type Logger, type ReaderEvent } from '@weir/common';
import { encodeEnumeratorEvent } from '@weir/rpc';
import { JobManagerErrorCode } from '../errors.ts';
import type { TaskManagerGateway } from '../job/task-manager-gateway.ts';
import type { EnumeratorHost, HostEvent } from './enumerator-host.ts';

/** A reader event from a task, as the JobManager received it. */
export interface ReaderEventMessage {
  readonly taskManagerId: string;
  readonly jobId: string;
  readonly attempt: number;
  readonly vertexId: string;
  readonly subtaskIndex: number;
  readonly operatorId: string;
  readonly event: ReaderEvent;
}

/** A split source operator of the job: the vertex it heads and its parallelism. */
export interface SplitSourceOperator {
  readonly operatorId: string;
  readonly name: string;
  readonly vertexId: string;
  readonly parallelism: number;
}

/** Where the current attempt's subtask runs, or undefined when the attempt has no such running subtask. */
export type SubtaskLocator = (vertexId: string, subtask: number) => { readonly attempt: number; readonly taskManagerId: string } | undefined;

interface PendingSnapshot {
  readonly states: Map<string, unknown>;
  readonly resolve: (states: ReadonlyMap<string, unknown>) => void;
  readonly reject: (cause: WeirError) => void;
}

/**
 * The JobManager side of a job's split sources (Flink's SourceCoordinator): one enumerator
 * per split source, in the EnumeratorHost, created afresh for every attempt from the state of
 * the checkpoint the attempt restores. Reader events go to the enumerator; its splits go to
 * the reader's task on its TaskManager.
 *
 * Checkpoints: `checkpoint(n)` snapshots every enumerator; from the moment a snapshot is
 * taken until `triggered(n)` (the trigger reached the sources' TaskManagers) assignments are
 * held back, so a split is either in the enumerator's state or reaches its reader before the
 * barrier, never both and never neither (Flink's operator event valve).
 */
export class SourceCoordinators {
  readonly #operators: readonly SplitSourceOperator[];
  #attempt = -1;
  /** Operators whose enumerator was snapshotted for a checkpoint whose trigger has not gone out yet. */
  readonly #closedValves = new Set<string>();
  /** Their assignments since, in order. */
  #held: Extract<HostEvent, { type: 'add-splits' | 'no-more-splits' }>[] = [];
  readonly #snapshots = new Map<number, PendingSnapshot>();

  constructor(
    operators: readonly SplitSourceOperator[],
    private readonly host: EnumeratorHost,
    private readonly deps: {
      readonly jobId: string;
      readonly gateway: TaskManagerGateway;
      readonly locate: SubtaskLocator;
      readonly logger: Logger;
      /** An enumerator failed: the job fails over (or fails) with the cause. */
      readonly failJob: (cause: WeirError) => void;
    },
  ) {
    this.#operators = operators;
    host.onEvent((event) => this.#onHostEvent(event));
  }

  get isEmpty(): boolean {
    return this.#operators.length === 0;
  }

  /** Fresh enumerators for attempt `attempt`, restored from `stateOf(operatorId)` where it has one. */
  startAttempt(attempt: number, stateOf: (operatorId: string) => unknown): void {
    this.#attempt = attempt;
    this.#closedValves.clear();
    this.#held = [];
    for (const pending of this.#snapshots.values()) pending.reject(new WeirError(JobManagerErrorCode.TASK_FAILED, 'a new attempt started'));
    this.#snapshots.clear();
    for (const { operatorId, parallelism } of this.#operators) {
      const restored = stateOf(operatorId);
      this.host.send({ type: 'create', operatorId, parallelism, ...(restored === undefined ? {} : { restored }) });
    }
  }

  readerEvent(message: ReaderEventMessage): void {
    if (message.attempt !== this.#attempt) {
      this.deps.logger.debug({ attempt: message.attempt, operatorId: message.operatorId }, 'ignoring a reader event of another attempt');
      return;
    }
    const type = message.event.kind === 'reader-registered' ? 'reader-registered' : 'split-request';
    this.host.send({ type, operatorId: message.operatorId, subtask: message.subtaskIndex });
  }

  /** Every enumerator's state for checkpoint `checkpointId`, by operator ID; rejects when one cannot be taken. */
  checkpoint(checkpointId: number): Promise<ReadonlyMap<string, unknown>> {
    if (this.#operators.length === 0) return Promise.resolve(new Map());
    return new Promise((resolve, reject) => {
      this.#snapshots.set(checkpointId, { states: new Map(), resolve, reject });
      for (const { operatorId } of this.#operators) this.host.send({ type: 'snapshot', operatorId, checkpointId });
    });
  }

  /** Checkpoint `checkpointId`'s trigger went out (or it was given up): held assignments go now, behind it. */
  triggered(checkpointId: number): void {
    this.#snapshots.delete(checkpointId);
    this.#closedValves.clear();
    const held = this.#held;
    this.#held = [];
    for (const event of held) this.#deliver(event);
  }

  checkpointComplete(checkpointId: number): void {
    for (const { operatorId } of this.#operators) this.host.send({ type: 'checkpoint-complete', operatorId, checkpointId });
  }

  async close(): Promise<void> {
    await this.host.close();
  }

  #onHostEvent(event: HostEvent): void {
    if (event.type === 'snapshot') {
      const pending = this.#snapshots.get(event.checkpointId);
      if (pending === undefined) return;
      // From here on this enumerator may assign splits its state still holds as unassigned: hold them back.
      this.#closedValves.add(event.operatorId);
      pending.states.set(event.operatorId, event.state);
      if (pending.states.size === this.#operators.length) pending.resolve(pending.states);
      return;
    }
    if (event.type === 'failed') {
      const cause = new WeirError(event.code ?? JobManagerErrorCode.SOURCE_ENUMERATOR_FAILED, `the split enumerator of ${this.#name(event.operatorId)} failed: ${event.message}`);
      const pending = event.checkpointId === undefined ? undefined : this.#snapshots.get(event.checkpointId);
      if (pending !== undefined) {
        pending.reject(cause);
        return;
      }
      this.deps.logger.warn({ operatorId: event.operatorId, code: cause.code }, cause.message);
      this.deps.failJob(cause);
      return;
    }
    if (this.#closedValves.has(event.operatorId)) this.#held.push(event);
    else this.#deliver(event);
  }

  #deliver(event: Extract<HostEvent, { type: 'add-splits' | 'no-more-splits' }>): void {
    const operator = this.#operators.find((o) => o.operatorId === event.operatorId);
    const where = operator === undefined ? undefined : this.deps.locate(operator.vertexId, event.subtask);
    if (operator === undefined || where === undefined || where.attempt !== this.#attempt) {
      this.deps.logger.debug({ operatorId: event.operatorId, subtask: event.subtask, type: event.type }, 'dropping an assignment for a reader that is not running');
      return;
    }
    const payload: EnumeratorEvent = event.type === 'add-splits' ? { kind: 'add-splits', splits: event.splits as SourceSplit[] } : { kind: 'no-more-splits' };
    this.deps.gateway.send(where.taskManagerId, {
      operatorEvent: encodeEnumeratorEvent({
        task: { jobId: this.deps.jobId, attempt: this.#attempt, vertexId: operator.vertexId, subtaskIndex: event.subtask },
        operatorId: event.operatorId,
        event: payload,
      }),
    });
  }

  #name(operatorId: string): string {
    const operator = this.#operators.find((o) => o.operatorId === operatorId);
    return operator === undefined ? `operator ${operatorId}` : `source ${operator.name} (operator ${operatorId})`;
  }
}

/** The split source operators of a job: each heads its vertex. */
export function splitSourceOperators(graph: StreamGraph, jobGraph: JobGraph): SplitSourceOperator[] {
  const operators: SplitSourceOperator[] = [];
  for (const vertex of jobGraph.vertices) {
    for (const { nodeId, operatorId } of vertex.operators) {
      const node = graph.nodes[nodeId];
      if (node?.spec.kind === 'source' && isSplitSource(node.spec.source)) {
        operators.push({ operatorId, name: node.name, vertexId: vertex.id, parallelism: vertex.parallelism });
      }
    }
  }
  return operators;
}

/** The SplitSource of split source operator `operatorId`. */
export function splitSourceOf(graph: StreamGraph, jobGraph: JobGraph, operatorId: string): SplitSource<unknown, SourceSplit, unknown> {
  for (const vertex of jobGraph.vertices) {
    for (const operator of vertex.operators) {
      const spec = graph.nodes[operator.nodeId]?.spec;
      if (operator.operatorId === operatorId && spec?.kind === 'source' && isSplitSource(spec.source)) return spec.source;
    }
  }
  throw new WeirError(JobManagerErrorCode.SOURCE_ENUMERATOR_FAILED, `the job has no split source with operator ID ${operatorId}`);
}
