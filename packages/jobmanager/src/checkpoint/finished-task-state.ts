import type { JobGraph } from '@weir/api';
import { CheckpointFailureReason, describeError, type CheckpointMetadata, type OperatorSubtaskState, type TaskStateSnapshot } from '@weir/common';
import type { Storage } from '@weir/storage';
import type { Execution } from '../job/execution.ts';
import { planCheckpoint, type CheckpointPlan } from './checkpoint-plan.ts';
import type { JobCheckpointStorage } from './checkpoint-storage.ts';
import type { CompletedCheckpoint, CompletedCheckpointStore } from './completed-checkpoint-store.ts';
import type { CheckpointSubtask, PendingCheckpoint } from './pending-checkpoint.ts';

/** Files copied at once when carrying state over: enough to overlap S3 round trips, few enough to bound memory. */
const COPY_CONCURRENCY = 4;

/**
 * The state that tasks which take no part in a checkpoint (they finished, or are finishing)
 * contribute to it: what they acknowledged last, read from the latest completed checkpoint.
 * Their in-flight channel data is dropped: it was delivered and processed before they
 * finished, so a restore from a later checkpoint must not replay it.
 */
export class CarriedState {
  readonly #states = new Map<string, TaskStateSnapshot>();

  constructor(
    /** The completed checkpoint the state comes from. */
    readonly from: CompletedCheckpoint,
    /** What its relative file paths resolve against; undefined when it has no directory the JobManager can read. */
    readonly directory: Storage | undefined,
    jobGraph: JobGraph,
    subtasks: readonly CheckpointSubtask[],
  ) {
    for (const { vertexId, index } of subtasks) {
      const vertex = jobGraph.vertices.find((v) => v.id === vertexId);
      const operators: Record<string, OperatorSubtaskState> = {};
      for (const { operatorId } of vertex?.operators ?? []) {
        const state = subtaskState(from.metadata, operatorId, index);
        if (state !== undefined) operators[operatorId] = state;
      }
      this.#states.set(keyOf(vertexId, index), { operators });
    }
  }

  stateOf(vertexId: string, index: number): TaskStateSnapshot | undefined {
    return this.#states.get(keyOf(vertexId, index));
  }

  /** Paths (relative to the checkpoint's own directory) of the files the carried state owns; shared files are the job's and stay where they are. */
  privateFiles(): string[] {
    const paths = new Set<string>();
    for (const snapshot of this.#states.values()) {
      for (const state of Object.values(snapshot.operators)) {
        for (const handle of state.operator ?? []) if (handle.handle.kind === 'file') paths.add(handle.handle.path);
        for (const keyed of state.keyed ?? []) {
          if (keyed.backend === 'heap') {
            if (keyed.handle.kind === 'file') paths.add(keyed.handle.path);
          } else {
            for (const file of keyed.files) if (file.location === 'private') paths.add(file.path);
          }
        }
      }
    }
    return [...paths].sort();
  }

  /** Copies the carried files into the directory of the checkpoint that takes them over, before its `_metadata` is written. */
  async copyInto(target: Storage): Promise<void> {
    const queue = this.privateFiles();
    if (queue.length === 0) return;
    const source = this.directory;
    if (source === undefined) throw new Error(`checkpoint ${this.from.checkpointId} has no directory to copy ${queue[0]} from`);
    const worker = async (): Promise<void> => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) await target.write(path, await source.read(path));
    };
    await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, queue.length) }, worker));
  }
}

export interface CheckpointFailure {
  readonly reason: CheckpointFailureReason;
  readonly message: string;
}

/**
 * A job's checkpoints once tasks have finished (Flink's FLIP-147): who takes part in the next
 * one, and the carried subtasks' state taken over from the latest retained checkpoint.
 */
export class FinishedTaskState {
  constructor(
    private readonly jobGraph: JobGraph,
    private readonly store: CompletedCheckpointStore,
    private readonly storage: JobCheckpointStorage | undefined,
  ) {}

  /** The plan of the next checkpoint; skipped as well when the finished tasks' state cannot be carried. */
  plan(execution: Execution): CheckpointPlan {
    const plan = planCheckpoint(this.jobGraph, execution);
    if (plan.kind === 'skip' || plan.carried.length === 0) return plan;
    const carried = this.#carry(plan.carried);
    return typeof carried === 'string' ? { kind: 'skip', reason: carried } : plan;
  }

  /**
   * Takes over the state of `pending`'s carried subtasks and copies its files into the new
   * checkpoint's directory, since handle paths are relative to a checkpoint's own directory
   * and the old one goes once it is subsumed. The `earlier` checkpoints being finalized settle
   * first, so the one carried from is the latest and none of them subsumes it meanwhile.
   * Returns why it failed, if it did.
   */
  async takeOver(pending: PendingCheckpoint, earlier: readonly Promise<void>[]): Promise<CheckpointFailure | undefined> {
    await Promise.allSettled(earlier);
    const carried = this.#carry(pending.carried);
    if (typeof carried === 'string') return { reason: CheckpointFailureReason.TASK_NOT_READY, message: carried };
    const storage = this.storage;
    if (storage !== undefined) {
      try {
        await carried.copyInto(storage.checkpointDirectory(pending.checkpointId));
      } catch (err) {
        const [from, to] = [storage.checkpointUrl(carried.from.checkpointId), storage.checkpointUrl(pending.checkpointId)];
        return { reason: CheckpointFailureReason.STORAGE_FAILURE, message: `could not copy the state of finished tasks from ${from} to ${to}: ${describeError(err)}` };
      }
    }
    pending.carriedState = carried;
    return undefined;
  }

  /**
   * The state of `subtasks` in the latest retained checkpoint, or why it cannot be carried: no
   * checkpoint completed, or the latest lives outside the job's checkpoint directory (a
   * stop-with-savepoint) while the state has files there.
   */
  #carry(subtasks: readonly CheckpointSubtask[]): CarriedState | string {
    const latest = this.store.newestFirst()[0];
    if (latest === undefined) return 'tasks have finished, but no retained checkpoint holds their state';
    const { checkpointId, externalPath } = latest;
    const storage = this.storage;
    const ownDirectory = storage !== undefined && externalPath === storage.checkpointUrl(checkpointId);
    const carried = new CarriedState(latest, ownDirectory ? storage.checkpointDirectory(checkpointId) : undefined, this.jobGraph, subtasks);
    if (carried.directory === undefined && carried.privateFiles().length > 0) {
      return `the state of the finished tasks is in files of checkpoint ${checkpointId} at ${externalPath || 'an unknown location'}, outside the job's checkpoint directory`;
    }
    return carried;
  }
}

function subtaskState(metadata: CheckpointMetadata, operatorId: string, index: number): OperatorSubtaskState | undefined {
  const state = metadata.operators.find((op) => op.operatorId === operatorId)?.subtasks[index];
  if (state === null || state === undefined) return undefined;
  const { channel: _inFlight, ...rest } = state;
  return rest;
}

function keyOf(vertexId: string, index: number): string {
  return `${vertexId}#${index}`;
}
