import { describe, expect, it } from 'vitest';
import { errorOf } from '../testing/fixtures.ts';
import { DEFAULT_MAX_STATE_SIZE, FsStateBackend, HashMapStateBackend, MemoryStateBackend } from './state-backend.ts';

describe('state backends', () => {
  it('MemoryStateBackend keeps 5 MiB by default or the given limit', () => {
    expect(DEFAULT_MAX_STATE_SIZE).toBe(5 * 1024 * 1024);
    expect(new MemoryStateBackend().settings).toEqual({ kind: 'memory', maxStateSize: 5 * 1024 * 1024 });
    expect(new MemoryStateBackend(1).settings).toEqual({ kind: 'memory', maxStateSize: 1 });
  });

  it.each([0, -5, 1.5, Number.NaN])('MemoryStateBackend rejects max state size %s', (size) => {
    expect(errorOf(() => new MemoryStateBackend(size))).toEqual({
      code: 'INVALID_STATE_BACKEND',
      message: `MemoryStateBackend max state size must be a whole number of bytes >= 1 (default 5242880), got ${size}`,
    });
  });

  it('FsStateBackend takes a local path, file:// or s3:// URL, or none, with async snapshots by default', () => {
    expect(new FsStateBackend('s3://weir/checkpoints').settings).toEqual({ kind: 'filesystem', checkpointDir: 's3://weir/checkpoints', asyncSnapshots: true });
    expect(new FsStateBackend('/tmp/chk', false).settings).toEqual({ kind: 'filesystem', checkpointDir: '/tmp/chk', asyncSnapshots: false });
    expect(new FsStateBackend('FILE:///tmp/chk').settings).toEqual({ kind: 'filesystem', checkpointDir: 'FILE:///tmp/chk', asyncSnapshots: true });
    expect(new FsStateBackend().settings).toEqual({ kind: 'filesystem', checkpointDir: undefined, asyncSnapshots: true });
  });

  it('HashMapStateBackend is the filesystem backend writing to state.checkpoints.dir', () => {
    const backend = new HashMapStateBackend();
    expect(backend).toBeInstanceOf(FsStateBackend);
    expect(backend.settings).toEqual({ kind: 'filesystem', checkpointDir: undefined, asyncSnapshots: true });
  });

  it('FsStateBackend rejects an empty path, an unsupported scheme and a non-boolean asyncSnapshots', () => {
    expect(errorOf(() => new FsStateBackend(''))).toEqual({
      code: 'INVALID_STATE_BACKEND',
      message: 'FsStateBackend needs a checkpoint path (a local path, file:// or s3:// URL) or none for state.checkpoints.dir, got ""',
    });
    expect(errorOf(() => new FsStateBackend('hdfs://nn/chk'))).toEqual({
      code: 'INVALID_STATE_BACKEND',
      message: 'FsStateBackend checkpoint path hdfs://nn/chk has the unsupported scheme hdfs://; use a local path, file:// or s3://',
    });
    expect(errorOf(() => new FsStateBackend('/chk', 'yes' as never))).toEqual({
      code: 'INVALID_STATE_BACKEND',
      message: 'FsStateBackend asyncSnapshots must be true or false, got yes',
    });
  });
});
