import { ListStateDescriptor, MapStateDescriptor, ReducingStateDescriptor, Types, ValueStateDescriptor } from '@weir/api';
import { keyGroupRangeForSubtask, type CheckpointOptions, type LevelKeyedStateHandle, type TaskStateSnapshot } from '@weir/common';
import { LocalStorage } from '@weir/storage';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { captureTaskState, persistTaskState } from '../../checkpoint/snapshot/persist-state.ts';
import type { TaskCheckpointing, TaskRestore } from '../../checkpoint/types.ts';
import { restoreOperatorState } from '../../checkpoint/restore/restore-operator-state.ts';
import { HeapKeyedStateBackend } from '../heap-keyed-state-backend.ts';
import { KeyContext } from '../key-context.ts';
import type { KeyedStateBackend } from '../keyed-state-backend.ts';
import { OperatorStateStore } from '../operator-state-store.ts';
import { CHECKPOINTING_DEFAULTS } from '../../testing/checkpointing-defaults.ts';
import { LevelKeyedStateBackend, type LevelBackendOptions } from './level-keyed-state-backend.ts';

/** Test support for the LevelDB backend: backends of one operator at a parallelism, a checkpoint directory, snapshot and restore in-process. */
export const MAX_PARALLELISM = 128;
export const OPERATOR_ID = 'op1';

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `weir-${prefix}-`));
}

export function levelSettings(checkpointDir: string, incremental: boolean): TaskCheckpointing {
  return {
    mode: 'EXACTLY_ONCE',
    backend: 'level',
    storage: new LocalStorage(checkpointDir),
    incremental,
    unaligned: false,
    alignedCheckpointTimeoutMs: 0,
    maxInlineBytes: 1024,
    asyncSnapshots: true,
    openStorage: CHECKPOINTING_DEFAULTS.openStorage,
  };
}

export function keyContext(parallelism: number, subtask: number): KeyContext {
  const label = `Count (${subtask + 1}/${parallelism})`;
  return new KeyContext(MAX_PARALLELISM, keyGroupRangeForSubtask(MAX_PARALLELISM, parallelism, subtask), label);
}

/** Changelog checkpoints into `checkpointDir`, materialized only when a test says so (materializeNow). */
export function changelogOptions(checkpointDir: string): LevelBackendOptions['changelog'] {
  return { storage: new LocalStorage(checkpointDir), materializeIntervalMs: 3_600_000 };
}

export async function levelBackend(localStateDir: string, parallelism = 1, subtask = 0, incremental = false, writeBufferBytes?: number, changelog?: LevelBackendOptions['changelog']): Promise<LevelKeyedStateBackend> {
  const keys = keyContext(parallelism, subtask);
  const label = `Count (${subtask + 1}/${parallelism})`;
  const backend = new LevelKeyedStateBackend({ keys, label, localStateDir, jobId: 'job1', operatorId: OPERATOR_ID, subtaskIndex: subtask, incremental, work: undefined, writeBufferBytes, ...(changelog === undefined ? {} : { changelog }) });
  await backend.open();
  return backend;
}

/** The backends and temporary directories a test file's tests make: disposed of and removed after each test. */
export class LevelTestResources {
  readonly #open: LevelKeyedStateBackend[] = [];
  readonly #dirs: string[] = [];

  constructor() {
    afterEach(async () => {
      for (const backend of this.#open.splice(0)) await backend.dispose();
      for (const d of this.#dirs.splice(0)) await rm(d, { recursive: true, force: true });
    });
  }

  dir(prefix: string): string {
    const d = tempDir(prefix);
    this.#dirs.push(d);
    return d;
  }

  async backend(localStateDir: string, parallelism = 1, subtask = 0, incremental = false, writeBufferBytes?: number, changelog?: LevelBackendOptions['changelog']): Promise<LevelKeyedStateBackend> {
    const backend = await levelBackend(localStateDir, parallelism, subtask, incremental, writeBufferBytes, changelog);
    this.#open.push(backend);
    return backend;
  }

  /** Disposes of one backend now (a test that opens many in turn). */
  async dispose(backend: LevelKeyedStateBackend): Promise<void> {
    this.#open.splice(this.#open.indexOf(backend), 1);
    await backend.dispose();
  }
}

/** The LevelDB handle of OPERATOR_ID's keyed state in a snapshot. */
export function levelHandleOf(state: TaskStateSnapshot): LevelKeyedStateHandle {
  return state.operators[OPERATOR_ID]!.keyed![0] as LevelKeyedStateHandle;
}

export function heapBackend(parallelism = 1, subtask = 0): HeapKeyedStateBackend {
  return new HeapKeyedStateBackend(keyContext(parallelism, subtask), `Count (${subtask + 1}/${parallelism})`);
}

/** Every state kind of one operator. */
export function statesOf(backend: KeyedStateBackend) {
  return {
    count: backend.getState(new ValueStateDescriptor('count', Types.NUMBER, 0)),
    seen: backend.getListState(new ListStateDescriptor('seen', Types.STRING)),
    tags: backend.getMapState(new MapStateDescriptor('tags', Types.STRING, Types.NUMBER)),
    total: backend.getReducingState(new ReducingStateDescriptor('total', (a: number, b: number) => a + b, Types.NUMBER)),
  };
}

/** Writes `round` into every state of each key. */
export function fill(backend: KeyedStateBackend, keys: readonly string[], round = 0): void {
  const s = statesOf(backend);
  for (const key of keys) {
    backend.keys.setCurrentKey(key);
    s.count.update(s.count.value()! + 1);
    s.seen.add(`${key}-${round}`);
    s.tags.put(`r${round}`, round);
    s.total.add(round + 1);
  }
  backend.keys.clearCurrentKey();
}

/** What every state holds for each key, as plain values. */
export function read(backend: KeyedStateBackend, keys: readonly string[]): unknown[] {
  const s = statesOf(backend);
  const out = keys.map((key) => {
    backend.keys.setCurrentKey(key);
    return [key, s.count.value(), [...s.seen.get()], [...s.tags.entries()].sort(), s.total.get()];
  });
  backend.keys.clearCurrentKey();
  return out;
}

/** Takes a checkpoint (or savepoint) of one backend as subtask `subtask`, the way the task does: capture, then persist. */
export async function snapshot(
  settings: TaskCheckpointing,
  backend: KeyedStateBackend,
  checkpointId: number,
  subtask = 0,
  options: CheckpointOptions = { type: 'checkpoint' },
): Promise<{ state: TaskStateSnapshot; stateBytes: number; checkpointedBytes: number }> {
  const states = [{ operatorId: OPERATOR_ID, label: 'Count', keyed: backend, lists: new OperatorStateStore('Count') }];
  const captured = await captureTaskState(states, checkpointId, options);
  return persistTaskState(settings, checkpointId, subtask, captured, options);
}

/** The handles of several subtasks' snapshots as one restore (what the JobManager hands a rescaled subtask). */
export function merged(...snapshots: TaskStateSnapshot[]): TaskStateSnapshot {
  return { operators: { [OPERATOR_ID]: { keyed: snapshots.flatMap((s) => s.operators[OPERATOR_ID]?.keyed ?? []) } } };
}

export function restoreFrom(checkpointDir: string, checkpointId: number, state: TaskStateSnapshot, directory = `chk-${checkpointId}`): TaskRestore {
  const jobStorage = new LocalStorage(checkpointDir);
  return { checkpointId, state, storage: jobStorage.child(directory), jobStorage };
}

export async function restoreInto(restore: TaskRestore, backend: KeyedStateBackend): Promise<void> {
  await restoreOperatorState(restore, { operatorId: OPERATOR_ID, label: 'Count', keyed: backend, lists: new OperatorStateStore('Count') });
}

/** Each fill of `rounds`, in order, into a heap backend: what a restore must read of `keys`. */
export function expected(rounds: readonly (readonly [readonly string[], number])[], keys: readonly string[] = KEYS): unknown[] {
  const heap = heapBackend();
  for (const [written, round] of rounds) fill(heap, written, round);
  return read(heap, keys);
}

export const KEYS = Array.from({ length: 300 }, (_, i) => `k${i}`);
