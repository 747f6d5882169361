import type { Etcd3 } from 'etcd3';
import type { Logger } from '@weir/common';
import type { LeadershipTerm } from '../election/leadership-term.ts';
import { etcd3Module } from '../etcd-module.ts';
import { unavailable } from '../etcd.ts';
import type { HaKeys } from '../keys.ts';

/** A retained completed checkpoint as etcd points to it. */
export interface CheckpointPointer {
  readonly checkpointId: number;
  /** URL of the directory holding its `_metadata`. */
  readonly path: string;
  readonly timestamp: number;
  /** The epoch of the leader that completed it. */
  readonly epoch: number;
}

/** What etcd holds of a job's checkpoints when a leader takes it over. */
export interface RecoveredCheckpoints {
  /** Oldest first. */
  readonly pointers: readonly CheckpointPointer[];
  /** The last checkpoint ID handed out (0: none yet); the next is above it. */
  readonly lastId: number;
  readonly problems: readonly string[];
}

/**
 * A job's checkpoints in etcd, as Flink's ZooKeeperCheckpointIDCounter and
 * DefaultCompletedCheckpointStore on ZooKeeper: the checkpoint ID counter, and one pointer per
 * retained completed checkpoint. Every write is guarded by the leadership term, so a deposed
 * leader can neither hand out IDs nor make a checkpoint count.
 */
export class HaCheckpointStore {
  #lastId = 0;
  #reserving: Promise<number> | undefined;

  constructor(
    private readonly etcd: Etcd3,
    private readonly keys: HaKeys,
    readonly jobId: string,
    private readonly term: LeadershipTerm,
    private readonly logger: Logger,
  ) {}

  async recover(): Promise<RecoveredCheckpoints> {
    let counter: string | null;
    let kvs: Record<string, string>;
    try {
      [counter, kvs] = await Promise.all([this.etcd.get(this.keys.checkpointCounter(this.jobId)).string(), this.etcd.getAll().prefix(this.keys.completedCheckpoints(this.jobId)).strings()]);
    } catch (err) {
      throw unavailable(`read the checkpoints of job ${this.jobId}`, err);
    }
    const pointers: CheckpointPointer[] = [];
    const problems: string[] = [];
    for (const [key, value] of Object.entries(kvs)) {
      const pointer = decodePointer(value);
      if (pointer === undefined) problems.push(`${key} holds no checkpoint pointer`);
      else pointers.push(pointer);
    }
    pointers.sort((a, b) => a.checkpointId - b.checkpointId);
    this.#lastId = Math.max(Number(counter ?? 0) || 0, pointers.at(-1)?.checkpointId ?? 0);
    return { pointers, lastId: this.#lastId, problems };
  }

  /** Hands out the next checkpoint ID, counted in etcd so that no later leader uses it again. */
  reserveId(): Promise<number> {
    const previous = this.#reserving ?? Promise.resolve(0);
    const next = previous.catch(() => 0).then(() => this.#setCounter(this.#lastId + 1));
    this.#reserving = next;
    return next;
  }

  /** Moves the counter up to `id` (a restored savepoint's ID), so IDs continue above it. */
  async raiseTo(id: number): Promise<void> {
    if (id > this.#lastId) await this.#setCounter(id);
  }

  /**
   * Makes checkpoint `pointer` count: writes its pointer and drops the pointers of
   * checkpoints older than `oldestRetained` in one transaction, if this JobManager still
   * leads. LEADERSHIP_LOST: not written; HA_STORE_UNAVAILABLE: the outcome is unknown.
   */
  register(pointer: Omit<CheckpointPointer, 'epoch'>, oldestRetained: number): Promise<void> {
    const ops = [this.etcd.put(this.keys.completedCheckpoint(this.jobId, pointer.checkpointId)).value(JSON.stringify({ ...pointer, epoch: this.term.epoch }))];
    if (oldestRetained > 0) {
      ops.push(this.etcd.delete().range(new (etcd3Module().Range)(this.keys.completedCheckpoints(this.jobId), this.keys.completedCheckpoint(this.jobId, oldestRetained))) as never);
    }
    return this.term.commit(`register checkpoint ${pointer.checkpointId} of job ${this.jobId} in etcd`, ops);
  }

  /** The job ended: its counter and pointers go. */
  async removeAll(): Promise<void> {
    await this.term.commit(`remove the checkpoints of job ${this.jobId} from etcd`, [this.etcd.delete().prefix(this.keys.checkpoints(this.jobId)) as never]);
  }

  async #setCounter(id: number): Promise<number> {
    await this.term.commit(`count checkpoint ID ${id} of job ${this.jobId} in etcd`, [this.etcd.put(this.keys.checkpointCounter(this.jobId)).value(String(id))]);
    this.#lastId = id;
    this.logger.debug({ checkpointId: id }, 'checkpoint ID reserved in etcd');
    return id;
  }
}

function decodePointer(value: string): CheckpointPointer | undefined {
  try {
    const parsed = JSON.parse(value) as Partial<CheckpointPointer>;
    if (typeof parsed.checkpointId === 'number' && typeof parsed.path === 'string') {
      return { checkpointId: parsed.checkpointId, path: parsed.path, timestamp: parsed.timestamp ?? 0, epoch: parsed.epoch ?? 0 };
    }
  } catch {
    // not JSON
  }
  return undefined;
}
