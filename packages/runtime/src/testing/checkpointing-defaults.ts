import { openStorage } from '@weir/storage';
import { MemoryStorage } from '@weir/storage/testing';
import type { TaskCheckpointing } from '../checkpoint/types.ts';

/** The TaskCheckpointing fields most tests leave alone: not incremental, aligned. */
export const CHECKPOINTING_DEFAULTS: Pick<TaskCheckpointing, 'incremental' | 'unaligned' | 'alignedCheckpointTimeoutMs' | 'openStorage'> = Object.freeze({
  incremental: false,
  unaligned: false,
  alignedCheckpointTimeoutMs: 0,
  openStorage: (url: string) => openStorage(url, { endpoint: undefined, accessKey: undefined, secretKey: undefined, region: 'us-east-1', pathStyleAccess: true }),
});

/** Exactly-once checkpoints of the filesystem backend into a fresh MemoryStorage, async snapshots, a 1 MiB inline limit, changed by `overrides`. */
export function testCheckpointing(overrides: Partial<TaskCheckpointing> = {}): TaskCheckpointing {
  return { mode: 'EXACTLY_ONCE', backend: 'filesystem', storage: new MemoryStorage(), maxInlineBytes: 1 << 20, asyncSnapshots: true, ...CHECKPOINTING_DEFAULTS, ...overrides };
}

/** Unaligned checkpoints of the memory backend (5 MiB inline): no storage, in-flight data in the acknowledgements. */
export function unalignedMemoryCheckpointing(overrides: Partial<TaskCheckpointing> = {}): TaskCheckpointing {
  return testCheckpointing({ backend: 'memory', storage: undefined, maxInlineBytes: 5 * 1024 * 1024, unaligned: true, ...overrides });
}
