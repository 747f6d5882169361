import { describeError, systemClock, WeirError, type CheckpointOptions, type Clock, type LevelStateFile, type StateMetaInfo } from '@weir/common';
import type { Storage } from '@weir/storage';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { decodeStateValue, encodeStateValue, packState, unpackState } from '../../checkpoint/state-codec.ts';
import type { PendingWork } from '../../operators/pending-work.ts';
import { KeyedStateRegistry } from '../keyed-state-registry.ts';
import { RegistryBackedStates } from '../registry-backed-states.ts';
import type { KeyContext } from '../key-context.ts';
import type { CapturedKeyedState, KeyedStateBackend } from '../keyed-state-backend.ts';
import { internalStateName } from '../state-descriptors.ts';
import { RuntimeErrorCode } from '../../errors.ts';
import { keyGroupBounds, parseStateKey, statePrefix } from './level-key.ts';
import { LevelStateTable } from './level-state-table.ts';
import { restoredBaseline, type LevelBaseline } from './baseline.ts';
import { LevelStore, type LevelTuning, type RawOperation } from './level-store.ts';
import { snapshotDatabaseFiles, type SnapshotFile } from './snapshot-files.ts';
import { materialize } from './changelog/materialize.ts';
import { PeriodicMaterializer } from './changelog/periodic-materializer.ts';
import { StateChangelog } from './changelog/state-changelog.ts';

export interface LevelBackendOptions {
  readonly keys: KeyContext;
  readonly label: string;
  /** The TaskManager's local state dir (state.backend.rocksdb.localdir). */
  readonly localStateDir: string;
  readonly jobId: string;
  readonly operatorId: string;
  readonly subtaskIndex: number;
  readonly incremental: boolean;
  /** Where the task waits for a write batch before its next record; undefined in tests without a task. */
  readonly work: PendingWork | undefined;
  /** Processing time of state TTL; the system clock when unset. */
  readonly clock?: Clock;
  /** LevelDB's memtable size over the tuning's (tests). */
  readonly writeBufferBytes?: number;
  /** LevelDB's options (state.backend.rocksdb.*); level-store.ts's defaults when unset. */
  readonly tuning?: LevelTuning;
  /** Changelog checkpoints (state.backend.changelog.enabled): where materializations upload, and how often they run. */
  readonly changelog?: { readonly storage: Storage | undefined; readonly materializeIntervalMs: number };
}

/** Entries per batch when rewriting migrated values. */
const REWRITE_BATCH = 4096;

/**
 * Keyed state of one operator subtask in a LevelDB database of its own, below the
 * TaskManager's local state dir (`<localdir>/<jobId>/<operatorId>-<subtask>-<random>/db`),
 * removed when the task ends. A checkpoint's synchronous part only sets the write cache's
 * dirty Maps aside; after it, while records flow, they are encoded, written to the DB (after a
 * batch still in flight) and the DB's files
 * are linked (snapshot-files.ts), a full checkpoint flushing the memtable first. Incremental
 * checkpoints refer to the table files and log and MANIFEST segments a confirmed checkpoint
 * already uploaded (as Flink's RocksIncrementalSnapshotStrategy: the baseline is the set of
 * the last confirmed checkpoint), so they upload what was written since, not the memtable
 * flushed into a new table and the compactions that table sets off. Savepoints iterate a DB
 * snapshot into the canonical format.
 */
export class LevelKeyedStateBackend extends RegistryBackedStates<LevelStateTable> implements KeyedStateBackend {
  readonly kind = 'level';
  readonly keys: KeyContext;
  readonly directory: string;
  readonly store: LevelStore;
  readonly #options: LevelBackendOptions;
  readonly #clock: Clock;
  protected readonly states: KeyedStateRegistry<LevelStateTable>;
  /** Shared files of the last confirmed checkpoint: what an incremental checkpoint may refer to. */
  #confirmed: LevelBaseline = new Map();
  /** The checkpoint `#confirmed` came from; 0 for the restored checkpoint's files, or none. */
  #confirmedId = 0;
  /** Shared files of checkpoints taken but not yet confirmed. */
  readonly #pending = new Map<number, LevelBaseline>();
  #scratch = 0;
  /** Changelog checkpoints only: the DB's writes since the materialized base, and what materializes it. */
  readonly changelog: StateChangelog | undefined;
  readonly #materializer: PeriodicMaterializer | undefined;
  #materializations = 0;
  /** A restore replacing the DB; disposing waits for it, so it never writes into a directory being removed. */
  #replacing: Promise<void> = Promise.resolve();
  #disposed = false;

  constructor(options: LevelBackendOptions) {
    super();
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.keys = options.keys;
    const unique = `${options.operatorId}-${options.subtaskIndex}-${randomBytes(4).toString('hex')}`;
    this.directory = join(options.localStateDir, options.jobId, unique);
    this.changelog = options.changelog === undefined ? undefined : new StateChangelog();
    this.store = new LevelStore({
      directory: join(this.directory, 'db'),
      label: options.label,
      work: options.work,
      clock: this.#clock,
      ...(options.writeBufferBytes === undefined ? {} : { writeBufferBytes: options.writeBufferBytes }),
      ...(options.tuning === undefined ? {} : { tuning: options.tuning }),
      ...(this.changelog === undefined ? {} : { changelog: this.changelog.writer }),
    });
    this.#materializer =
      options.changelog === undefined
        ? undefined
        : new PeriodicMaterializer({ clock: this.#clock, intervalMs: options.changelog.materializeIntervalMs, label: options.label, materialize: () => this.#materialize() });
    this.states = new KeyedStateRegistry({
      label: options.label,
      clock: this.#clock,
      newTable: (name, kind) => new LevelStateTable(name, kind, this.keys, this.store),
      // Restored values of an older type are migrated on read now, and rewritten in the DB by the next checkpoint's synchronous part.
      firstUse: (table, migrate) => {
        table.migrate = migrate;
      },
    });
  }

  /**
   * The normalized keys with a value of plain state `name`, each with its key group (absolute),
   * read from the DB once the caches are written: classic-level iterates only asynchronously,
   * so applyToKeyedState on this backend collects the keys first (broadcast-process-operator.ts).
   */
  async keysOfAsync(name: string): Promise<[unknown, number][]> {
    const keys: [unknown, number][] = [];
    for await (const [key, , group] of this.#entries(name)) keys.push([unpackState(parseStateKey(key).serializedKey), group]);
    return keys;
  }

  /** Reads the state's entries key group by key group: keys are (group, name, key), so each group's entries of one state are one key range. */
  async internalValues(name: string): Promise<unknown[]> {
    const values: unknown[] = [];
    for await (const [, value] of this.#entries(internalStateName(name))) values.push(unpackState(value));
    return values;
  }

  /** Every stored entry of state `name` with its key group, group by group, once the caches are written; nothing for a state this task never had. */
  async *#entries(name: string): AsyncGenerator<[Buffer, Buffer, number]> {
    if (this.states.table(name) === undefined) return;
    await this.store.flushAll();
    const nameBytes = Buffer.from(name, 'utf8');
    const { start, end } = this.keys.range;
    for (let group = start; group <= end; group++) {
      const gte = statePrefix(group, nameBytes);
      const lt = Buffer.from(gte);
      lt[lt.byteLength - 1] = 1;
      const cursor = this.store.cursor(gte, lt);
      try {
        for (let entries = await cursor.nextv(REWRITE_BATCH); entries.length !== 0; entries = await cursor.nextv(REWRITE_BATCH)) {
          for (const [key, value] of entries) yield [key, value, group];
        }
      } finally {
        await cursor.close();
      }
    }
  }

  /** Creates the task's directory below the local state dir and opens an empty DB there. */
  async open(): Promise<void> {
    const { localStateDir, label } = this.#options;
    try {
      await mkdir(this.store.directory, { recursive: true });
      await this.store.open();
      this.#materializer?.schedule();
    } catch (err) {
      throw new WeirError(
        RuntimeErrorCode.LOCAL_STATE_DIR_UNUSABLE,
        `${label} cannot keep its LevelDB state in the local state dir ${localStateDir} (at ${this.directory}): ${describeError(err)}; ` +
          `make the directory writable, or set state.backend.rocksdb.localdir to a writable directory`,
        { cause: err },
      );
    }
  }

  async capture(checkpointId: number, options: CheckpointOptions): Promise<CapturedKeyedState> {
    // A savepoint's iterator and a migration's rewrite read the DB: it must hold everything first.
    if (options.type === 'savepoint' || this.#migrating().size !== 0) {
      await this.store.flushAll();
      await this.#rewriteMigrated();
    }
    const keyGroupRange = this.keys.range;
    const states = this.describe();
    // No state, no DB to write: an empty heap view writes nothing.
    const capturedAt = this.#clock.now();
    if (Object.keys(states).length === 0) return { kind: 'heap', keyGroupRange, states: [], capturedAt };
    if (options.type === 'savepoint') {
      const { gte, lt } = keyGroupBounds(keyGroupRange);
      return { kind: 'level-canonical', keyGroupRange, states, cursor: this.store.cursor(gte, lt), capturedAt };
    }
    if (this.changelog !== undefined && options.full !== true) {
      // A batch still in flight (the cache filled just before the barrier) goes to the changelog first.
      await this.store.settled();
      this.#materializer?.throwFailure();
      // The dirty entries go to the changelog's open segment now (and to the DB in the background); the checkpoint closes the segment.
      this.store.writeDirtyThen(() => Promise.resolve(), false).catch(() => undefined);
      const changelog = this.changelog.checkpoint(checkpointId);
      if (changelog !== undefined) return { kind: 'level-changelog', keyGroupRange, states, ...changelog };
    }
    const directory = join(this.directory, `chk-${checkpointId}`);
    // An on-demand FULL checkpoint uploads every file, as Flink's full snapshot of an incremental RocksDB backend.
    const baseline = this.#options.incremental && options.full !== true ? this.#confirmed : undefined;
    // The dirty entries are frozen now (the state as of the barrier) and written after a batch still in flight, while records flow.
    const files = this.store.writeDirtyThen(() => this.#takeFiles(checkpointId, directory, baseline));
    // Awaited by the asynchronous part; a task that ends before it must not leave the rejection unhandled.
    files.catch(() => undefined);
    return {
      kind: 'level-files',
      keyGroupRange,
      states,
      directory,
      files,
      confirmed: baseline,
      baseCheckpointId: this.#confirmedId,
      uploaded: (shared) => this.#pending.set(checkpointId, shared),
    };
  }

  /** The DB's files once the checkpoint's batch is in it: a full checkpoint moves the memtable into a table first, an incremental one takes the log as it is. */
  async #takeFiles(checkpointId: number, directory: string, baseline: LevelBaseline | undefined): Promise<SnapshotFile[]> {
    if (baseline === undefined) await this.store.flushMemtable();
    try {
      return await snapshotDatabaseFiles(this.store.directory, directory, baseline);
    } catch (err) {
      throw new WeirError(RuntimeErrorCode.LEVEL_STATE_FAILED, `linking the LevelDB files of ${this.#options.label} for checkpoint ${checkpointId} failed: ${describeError(err)}`, { cause: err });
    }
  }

  notifyCheckpointComplete(checkpointId: number): void {
    this.changelog?.confirm(checkpointId);
    const shared = this.#pending.get(checkpointId);
    if (shared !== undefined) {
      this.#confirmed = shared;
      this.#confirmedId = checkpointId;
    }
    for (const id of this.#pending.keys()) if (id <= checkpointId) this.#pending.delete(id);
  }

  notifyCheckpointAborted(checkpointId: number): void {
    this.changelog?.abort(checkpointId);
    this.#pending.delete(checkpointId);
  }

  /**
   * Closes the DB and removes this subtask's directory, and the job's directory below the local
   * state dir once no other subtask of the job here uses it: nothing is left behind, however
   * the task ended. A snapshot still linking files into the directory makes a removal fail
   * with ENOTEMPTY: it is retried.
   */
  async dispose(): Promise<void> {
    this.#disposed = true;
    await this.#replacing.catch(() => undefined);
    await this.#materializer?.stop();
    try {
      await this.store.close();
    } finally {
      await rm(this.directory, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      await rmdir(dirname(this.directory)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOTEMPTY' && err.code !== 'ENOENT' && err.code !== 'EEXIST') throw err;
      });
    }
  }

  /** Every state the DB holds, registered or only restored, with its current description. */
  describe(): Record<string, StateMetaInfo> {
    return this.states.describe();
  }

  /** A restored state's description; the function's descriptor later must agree on the kind (and is checked for schema evolution). */
  restoredState(name: string, meta: StateMetaInfo): void {
    this.states.restored(name, meta);
  }

  /** Restore when the checkpoint's DB is this subtask's as it is: close the empty DB, let `fill` put the checkpoint's files in its place, open them. */
  replaceDatabase(fill: (directory: string) => Promise<void>): Promise<void> {
    const replacing = (async () => {
      await this.store.close();
      await rm(this.store.directory, { recursive: true, force: true });
      await mkdir(this.store.directory, { recursive: true });
      await fill(this.store.directory);
      if (!this.#disposed) await this.store.open(true);
    })();
    this.#replacing = replacing;
    return replacing;
  }

  /** The shared files of the checkpoint the DB was restored from, as if this task had confirmed them: incremental checkpoints refer to them. */
  seedConfirmed(shared: LevelBaseline): void {
    this.#confirmed = shared;
    this.#confirmedId = 0;
  }

  /** Restored from a changelog checkpoint, whose base the DB was opened from and whose segments it replayed: checkpoints go on from them. */
  restoredChangelog(files: readonly LevelStateFile[], segments: readonly LevelStateFile[]): void {
    this.changelog?.restored(files, restoredBaseline(files), segments);
    this.seedConfirmed(restoredBaseline(files));
  }

  /** Restored from files a changelog checkpoint cannot name (private, another subtask's, copied): checkpoints upload the DB's files until a materialization, started now, is confirmed. */
  restoredWithoutChangelog(baseline: LevelBaseline): void {
    if (this.changelog === undefined) return;
    this.changelog.lostBase(baseline);
    this.#materializer?.schedule(0);
  }

  /** Materializes the DB now, or waits for the materialization under way (tests). */
  materializeNow(): Promise<void> {
    return this.#materializer?.runNow() ?? Promise.resolve();
  }

  #materialize(): Promise<void> {
    const { operatorId, subtaskIndex, label } = this.#options;
    return materialize({
      store: this.store,
      changelog: this.changelog!,
      storage: this.#options.changelog?.storage,
      directory: join(this.directory, `materialize-${this.#materializations++}`),
      prefix: `${operatorId}-${subtaskIndex}`,
      keyGroupRange: this.keys.range,
      states: this.describe(),
      label,
    });
  }

  /** A fresh directory for a restore to download another DB into; the caller removes it. */
  scratchDirectory(): string {
    return join(this.directory, `restore-${this.#scratch++}`);
  }

  /** Rewrites every value of states being migrated, so the DB's files hold only values of the described types. Records are stopped. */
  async #rewriteMigrated(): Promise<void> {
    const migrating = this.#migrating();
    if (migrating.size === 0) return;
    const { gte, lt } = keyGroupBounds(this.keys.range);
    const cursor = this.store.cursor(gte, lt);
    try {
      for (let entries = await cursor.nextv(REWRITE_BATCH); entries.length !== 0; entries = await cursor.nextv(REWRITE_BATCH)) {
        const operations: RawOperation[] = [];
        for (const [key, value] of entries) {
          const table = migrating.get(parseStateKey(key).name);
          if (table === undefined) continue;
          const migrated = table.migrate!(decodeStateValue(table.kind, unpackState(value)));
          const packed = packState(encodeStateValue(table.kind, migrated));
          operations.push({ type: 'put', key, value: Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength) });
        }
        await this.store.writeRaw(operations);
      }
    } finally {
      await cursor.close();
    }
    for (const table of migrating.values()) table.migrate = undefined;
  }

  /** States whose restored values of an older type still wait to be rewritten. */
  #migrating(): Map<string, LevelStateTable> {
    const migrating = new Map<string, LevelStateTable>();
    for (const { name, table } of this.states.sorted()) if (table.migrate !== undefined) migrating.set(name, table);
    return migrating;
  }
}
