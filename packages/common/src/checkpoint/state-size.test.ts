import { describe, expect, it } from 'vitest';
import { checkpointStateBytes } from './state-size.ts';
import type { OperatorMetadata } from './types.ts';

const operator = (subtasks: OperatorMetadata['subtasks']): OperatorMetadata => ({ operatorId: 'op', uid: undefined, name: 'Count', parallelism: subtasks.length, maxParallelism: 128, subtasks });

describe('checkpointStateBytes', () => {
  it('counts every byte the handles refer to: shared files of earlier incremental checkpoints, log segments, operator and channel state', () => {
    const level = {
      backend: 'level' as const,
      keyGroupRange: { start: 0, end: 63 },
      states: {},
      baseCheckpointId: 3,
      files: [
        { name: '000005.ldb', location: 'shared' as const, path: 'shared/op-0-u-000005.ldb', size: 1_000_000 },
        { name: '000006.log', location: 'shared' as const, path: 'shared/op-0-v-000006.log', size: 700, offset: 0 },
        { name: '000006.log', location: 'shared' as const, path: 'shared/op-0-w-000006.log', size: 300, offset: 700 },
        { name: 'CURRENT', location: 'private' as const, path: 'op-0-level/CURRENT', size: 16 },
      ],
    };
    const file = (size: number) => ({ kind: 'file' as const, path: 'x', size });
    const metadata = {
      operators: [
        operator([{ keyed: [level], operator: [{ handle: file(20), states: {} }] }, null]),
        operator([{ channel: { handle: { kind: 'inline', data: '', size: 4 }, channels: [] } }]),
      ],
    };
    expect(checkpointStateBytes(metadata)).toBe(1_000_000 + 700 + 300 + 16 + 20 + 4);
  });

  it('counts the changelog segments of a changelog checkpoint besides its base', () => {
    const level = {
      backend: 'level' as const,
      keyGroupRange: { start: 0, end: 127 },
      states: {},
      files: [{ name: '000005.ldb', location: 'shared' as const, path: 'shared/op-0-u-000005.ldb', size: 1_000 }],
      changelog: [{ name: 'changelog-1', location: 'shared' as const, path: 'shared/op-0-v-changelog-1', size: 40 }],
    };
    expect(checkpointStateBytes({ operators: [operator([{ keyed: [level] }])] })).toBe(1_040);
  });
});
