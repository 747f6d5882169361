import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '@weir/storage';
import type { TaskCheckpointing } from '../checkpoint/types.ts';

/** The TaskCheckpointing fields most tests leave alone: heap-only, aligned, a temp local state dir. */
export const CHECKPOINTING_DEFAULTS: Pick<TaskCheckpointing, 'incremental' | 'unaligned' | 'alignedCheckpointTimeoutMs' | 'localStateDir' | 'openStorage'> = Object.freeze({
  incremental: false,
  unaligned: false,
  alignedCheckpointTimeoutMs: 0,
  localStateDir: join(tmpdir(), 'weir-test-local-state'),
  openStorage: (url: string) => openStorage(url, { endpoint: undefined, accessKey: undefined, secretKey: undefined, region: 'us-east-1', pathStyleAccess: true }),
});
