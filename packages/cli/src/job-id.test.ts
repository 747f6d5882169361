import { describe, expect, it } from 'vitest';
import { looksLikeJobId } from './job-id.ts';

describe('looksLikeJobId', () => {
  it('accepts 32 hex digits in either case and nothing else', () => {
    expect(['0123456789abcdef0123456789ABCDEF', 'f'.repeat(32)].map(looksLikeJobId)).toEqual([true, true]);
    expect(['f'.repeat(31), 'f'.repeat(33), 'g'.repeat(32), '/tmp/savepoints', 's3://bucket/savepoints', ''].map(looksLikeJobId)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
