import {
  buildJobGraph,
  buildStreamGraph,
  type JobGraph,
  type Sink,
  type SinkWriter,
  type StreamExecutionEnvironment,
  type StreamGraph,
} from '@weir/api';
import { isTerminalTaskState, type AwaitingFinalCheckpoint, type CheckpointAck, type CheckpointDecline, type Clock, type TaskState } from '@weir/common';
import { silentLogger } from '@weir/common/testing';
import type { TaskCheckpointing, TaskRestore } from '../checkpoint/types.ts';
import { PartitionRegistry } from '../network/partition-registry.ts';
import type { ChannelListener, NetworkEnvironment, PartitionId, RemoteConnector, SubpartitionId, Subscription } from '../network/types.ts';
import type { TaskDeploymentDescriptor, TaskStateChange } from '../task/deployment.ts';
import { Task } from '../task/task.ts';
import { LocalSourceCoordinator } from './local-source-coordinator.ts';
import type { TaskStateBackend } from '../state/task-state-backend.ts';

/** Stands in for the gRPC DataExchange: routes to the producer TaskManager's registry, copying every payload as the wire would. */
export class CopyingRemoteConnector implements RemoteConnector {
  copiedBuffers = 0;

  constructor(private readonly registries: ReadonlyMap<string, PartitionRegistry>) {}

  connect(dataAddress: string, id: SubpartitionId, initialCredit: number, listener: ChannelListener): Subscription {
    const registry = this.registries.get(dataAddress);
    if (registry === undefined) throw new Error(`no TaskManager at ${dataAddress}`);
    return registry.subscribe(id, initialCredit, {
      onItem: (item) => {
        if (item.kind !== 'buffer') return listener.onItem(item);
        this.copiedBuffers++;
        listener.onItem({ kind: 'buffer', payload: Uint8Array.from(item.payload), recordCount: item.recordCount });
      },
      onError: (error) => listener.onError(error),
    });
  }
}

export interface RunningJob {
  readonly graph: StreamGraph;
  readonly jobGraph: JobGraph;
  /** By vertex name, then subtask index. */
  readonly tasks: ReadonlyMap<string, readonly Task[]>;
  readonly changes: ReadonlyMap<Task, readonly TaskStateChange[]>;
  readonly registries: readonly PartitionRegistry[];
  /** Every partition the tasks registered. */
  readonly registered: readonly PartitionId[];
  readonly connector: CopyingRemoteConnector;
  task(vertexName: string, subtask?: number): Task;
  /** Every task with its vertex ID and subtask index, in deployment order. */
  readonly deployed: readonly DeployedTask[];
  /** Acknowledgements by checkpoint ID, then task. */
  readonly acks: ReadonlyMap<number, ReadonlyMap<Task, CheckpointAck>>;
  readonly declines: readonly { readonly task: Task; readonly decline: CheckpointDecline }[];
  /** What each task told the JobManager when its input ended and it began to wait for its final checkpoint. */
  readonly awaitingFinal: ReadonlyMap<Task, AwaitingFinalCheckpoint>;
  /** The enumerators of the job's split sources. */
  readonly coordinator: LocalSourceCoordinator;
  /** Resolves when every task is FINISHED, CANCELED or FAILED. */
  whenAllTerminal(): Promise<void>;
}

export interface DeployedTask {
  readonly vertexId: string;
  readonly subtask: number;
  /** The vertex has no inputs: checkpoints are triggered here. */
  readonly isSource: boolean;
  readonly task: Task;
}

export interface JobOptions {
  /** Subtask i runs on TaskManager i % taskManagers; channels across TaskManagers go through the copying connector. */
  taskManagers?: number;
  clock?: Clock;
  registryTimeoutMs?: number;
  /** Start consumers before their producers, as a TaskManager may. */
  consumersFirst?: boolean;
  /** Change the deployment of a task before it starts. */
  deploy?: (d: TaskDeploymentDescriptor) => TaskDeploymentDescriptor;
  /** Turns checkpointing on for every task. */
  checkpointing?: TaskCheckpointing;
  /** Where every task's keyed state lives; the heap when unset. */
  stateBackend?: TaskStateBackend;
  /** The state a task starts from. */
  restore?: (vertexId: string, subtask: number) => TaskRestore | undefined;
  /** Job attempt number (tasks of a restored job run as a new attempt). */
  attempt?: number;
  /** The enumerator state a split source restores from, by operator ID (from `coordinator.snapshot` of an earlier run). */
  enumeratorState?: (operatorId: string) => unknown;
  /** The job's main's args. */
  args?: readonly string[];
  /** The job's default parallelism (1 when unset); the job's own setParallelism calls win. */
  parallelism?: number;
}


/**
 * Runs a job in this process as a TaskManager would, one Task per subtask, each with its
 * own freshly built graph (so no function instance is shared between subtasks).
 */
export async function runJob(main: (env: StreamExecutionEnvironment, args: string[]) => void | Promise<void>, options: JobOptions = {}): Promise<RunningJob> {
  const defaults = { parallelism: options.parallelism ?? 1, maxParallelism: -1, bufferTimeoutMs: 100 };
  const args = options.args ?? [];
  const graph = await buildStreamGraph(main, args, defaults);
  const jobGraph = buildJobGraph(graph);
  const coordinator = new LocalSourceCoordinator(graph, jobGraph, options.enumeratorState);
  const tmCount = options.taskManagers ?? 1;
  const registries = Array.from({ length: tmCount }, () => new PartitionRegistry({ clock: options.clock, subscribeTimeoutMs: options.registryTimeoutMs }));
  const registered: PartitionId[] = [];
  for (const registry of registries) {
    const register = registry.register.bind(registry);
    registry.register = (partition) => {
      registered.push(partition.id);
      register(partition);
    };
  }
  const byAddress = new Map(registries.map((r, i) => [`tm-${i}:6121`, r]));
  const connector = new CopyingRemoteConnector(byAddress);
  const networks: NetworkEnvironment[] = registries.map((partitions, i) => ({ taskManagerId: `tm-${i}`, partitions, remote: connector }));
  const tasks = new Map<string, Task[]>();
  const changes = new Map<Task, TaskStateChange[]>();
  const all: Task[] = [];
  const deployed: DeployedTask[] = [];
  const acks = new Map<number, Map<Task, CheckpointAck>>();
  const declines: { task: Task; decline: CheckpointDecline }[] = [];
  const awaitingFinal = new Map<Task, AwaitingFinalCheckpoint>();
  for (const vertex of jobGraph.vertices) {
    const list: Task[] = [];
    for (let subtask = 0; subtask < vertex.parallelism; subtask++) {
      let deployment: TaskDeploymentDescriptor = {
        jobId: 'job-1',
        attempt: options.attempt ?? 0,
        jobName: jobGraph.jobName,
        vertexId: vertex.id,
        subtaskIndex: subtask,
        parallelism: vertex.parallelism,
        inputs: vertex.inputs.map((edge) => ({
          sourceVertexId: edge.sourceVertexId,
          producers: Array.from({ length: jobGraph.vertices.find((v) => v.id === edge.sourceVertexId)!.parallelism }, (_, p) => ({
            subtaskIndex: p,
            taskManagerId: `tm-${p % tmCount}`,
            dataAddress: `tm-${p % tmCount}:6121`,
          })),
        })),
      };
      if (options.deploy !== undefined) deployment = options.deploy(deployment);
      const seen: TaskStateChange[] = [];
      const restore = options.restore?.(vertex.id, subtask);
      const task: Task = new Task({
        deployment,
        graph: await buildStreamGraph(main, args, defaults),
        network: networks[subtask % tmCount]!,
        logger: silentLogger(),
        clock: options.clock,
        onStateChange: (change) => seen.push(change),
        ...(options.checkpointing === undefined ? {} : { checkpointing: options.checkpointing }),
        ...(options.stateBackend === undefined ? {} : { stateBackend: options.stateBackend }),
        ...(restore === undefined ? {} : { restore }),
        onCheckpointAck: (ack) => {
          let byTask = acks.get(ack.checkpointId);
          if (byTask === undefined) acks.set(ack.checkpointId, (byTask = new Map()));
          byTask.set(task, ack);
        },
        onCheckpointDecline: (decline) => declines.push({ task, decline }),
        onAwaitingFinalCheckpoint: (message) => awaitingFinal.set(task, message),
        onOperatorEvent: coordinator.readerEvent(subtask, () => task),
      });
      changes.set(task, seen);
      list.push(task);
      all.push(task);
      deployed.push({ vertexId: vertex.id, subtask, isSource: vertex.inputs.length === 0, task });
    }
    tasks.set(vertex.name, list);
  }
  for (const task of options.consumersFirst === true ? [...all].reverse() : all) task.start();
  return {
    graph,
    jobGraph,
    tasks,
    changes,
    registries,
    registered,
    connector,
    deployed,
    acks,
    declines,
    awaitingFinal,
    coordinator,
    task(name, subtask = 0) {
      const task = tasks.get(name)?.[subtask];
      if (task === undefined) throw new Error(`no task ${name} [${subtask}]; tasks: ${[...tasks.keys()].join(', ')}`);
      return task;
    },
    whenAllTerminal: () => waitUntil(() => all.every((t) => isTerminalTaskState(t.state))),
  };
}

/** Polls on the event loop (setImmediate, no timers) until `done` holds. */
export async function waitUntil(done: () => boolean, maxTurns = 2_000_000): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    if (done()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not reached');
}

/** A sink collecting every record with the subtask that wrote it; `onWrite` may return a promise to slow the sink down. */
export class CollectingSink<T> implements Sink<T> {
  readonly records: { subtask: number; record: T }[] = [];
  readonly events: string[] = [];

  constructor(private readonly onWrite?: (record: T) => void | Promise<void>) {}

  createWriter(context: { subtaskIndex: number }): SinkWriter<T> {
    const subtask = context.subtaskIndex;
    return {
      write: (record) => {
        this.records.push({ subtask, record });
        return this.onWrite?.(record);
      },
      flush: (endOfInput) => void this.events.push(`flush(${endOfInput}) ${subtask}`),
      close: () => void this.events.push(`close ${subtask}`),
    };
  }

  values(): T[] {
    return this.records.map((r) => r.record);
  }
}

export function states(changes: readonly TaskStateChange[] | undefined): TaskState[] {
  return (changes ?? []).map((c) => c.state);
}
